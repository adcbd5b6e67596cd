/**
 * @module What an `aws` Machine's exists and delete need to reach its instance without the spec:
 * the region and the name of the credentials Secret (never its contents). Reported with every
 * create and update (`ProviderResult.access`) and handed back while the Machine is deleted, so
 * its deletion reads no MachineClass.
 */
import type { JsonObject, SecretRef } from '../actuator'
import type { AwsProviderSpec } from './spec'

/** Where the instance lives and which Secret signs the calls; both absent: the SDK's defaults. */
export interface AwsAccess {
  region?: string | undefined
  credentialsSecret?: string | undefined
}

/** The access a spec gives: its region, its credentials Secret, else the class's. */
export function awsAccessOf(spec: AwsProviderSpec, classCredentials?: SecretRef): AwsAccess {
  const secret = spec.credentialsSecret ?? classCredentials
  return { region: spec.region, credentialsSecret: secret?.name }
}

/** The access as recorded on the Machine. */
export function awsAccessJson(access: AwsAccess): JsonObject {
  return {
    ...(access.region ? { region: access.region } : {}),
    ...(access.credentialsSecret ? { credentialsSecret: access.credentialsSecret } : {}),
  }
}

/** The access recorded on the Machine; a field of another type is read as absent. */
export function parseAwsAccess(json: JsonObject): AwsAccess {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)
  return { region: text(json.region), credentialsSecret: text(json.credentialsSecret) }
}
