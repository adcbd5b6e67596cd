/** The provider conformance suite for `aws`, against a real moto EC2 server. */
import { useMoto } from './aws-fixture'
import { actuatorConformance, type ConformanceTarget } from './conformance'

const moto = useMoto()

actuatorConformance('aws', (): ConformanceTarget => {
  const f = moto()
  return {
    actuator: f.provider.actuator,
    context: () => f.context().ctx,
    countInstances: async (uid) => (await f.tagged(uid)).length,
    providerIDPattern: /^aws:\/\/\/eu-west-1[a-c]\/i-[0-9a-f]+$/,
  }
})
