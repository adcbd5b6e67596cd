/** @module The `kwok` provider: simulated machines for tests, benchmarks and the cloudless demo. */
import type { Provider } from '../registry'
import { parseProviderSpec } from '../spec'
import { createKwokActuator } from './actuator'
import { kwokNodeInfo } from './node'
import { kwokProviderSpecSchema } from './spec'

/**
 * The `kwok` provider; it reaches its Nodes through each call's `ctx.kube` (see ActuatorContext).
 * @example createProviderRegistry([createKwokProvider()])
 */
export function createKwokProvider(): Provider {
  return {
    name: 'kwok',
    actuator: createKwokActuator(),
    // The simulated Node reports its spec's allocatable as capacity, on the system its labels
    // and kwok's node-initialize stage give every Node.
    async capacity(request) {
      const spec = parseProviderSpec(kwokProviderSpecSchema(), request.providerSpec)
      return {
        capacity: { ...spec.allocatable },
        nodeInfo: { ...kwokNodeInfo },
      }
    },
  }
}
