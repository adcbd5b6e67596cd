/** @module The `aws` (EC2) provider. */
export { type AwsActuatorOptions, createAwsActuator } from './actuator'
export { type AwsCredentials, type ClientPoolOptions, createClientPool } from './client-pool'
export { awsErrorName, classifyAwsError } from './errors'
export { instanceAddresses, instanceStatus, pickInstance, toProviderResult } from './instance'
export {
  findOrphans,
  listOwnedInstances,
  type Orphan,
  type OrphanPolicy,
  sweepOrphans,
} from './orphans'
export {
  type AwsProvider,
  type AwsProviderOptions,
  createAwsProvider,
  type OrphanSweepRequest,
} from './provider'
export { formatAwsProviderID, parseAwsProviderID } from './provider-id'
export { pickNewestImage, pickSubnet } from './resolve'
export { clientTokenFor, type ResolvedLaunch, toRunInstancesInput } from './run-instances-input'
export { credentialKeys } from './secrets'
export { type AwsProviderSpec, type AwsProviderSpecInput, awsProviderSpecSchema } from './spec'
export { defaultOwnerId, machineTags, tagKeys } from './tags'
