/**
 * @module Classifies EC2 failures by AWS error name into provider error kinds. The one place that
 * knows EC2 error codes: https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html
 */
import type { PermanentError } from '../../errors'
import { isAbortError, TransientError } from '../../errors'
import {
  CapacityError,
  defaultRetryAfterMs,
  InvalidConfigurationError,
  NotFoundError,
  ThrottledError,
} from '../errors'

/** Invalid-configuration codes and the spec field each one points at. */
const invalidConfiguration: Record<string, { reason: string; field?: string }> = {
  'InvalidAMIID.NotFound': { reason: 'InvalidAMI', field: 'ami' },
  'InvalidAMIID.Malformed': { reason: 'InvalidAMI', field: 'ami' },
  'InvalidAMIID.Unavailable': { reason: 'InvalidAMI', field: 'ami' },
  'InvalidSubnetID.NotFound': { reason: 'InvalidSubnet', field: 'subnet' },
  'InvalidSubnetID.Malformed': { reason: 'InvalidSubnet', field: 'subnet' },
  InvalidSubnet: { reason: 'InvalidSubnet', field: 'subnet' },
  'InvalidGroup.NotFound': { reason: 'InvalidSecurityGroup', field: 'securityGroups' },
  'InvalidGroupId.Malformed': { reason: 'InvalidSecurityGroup', field: 'securityGroups' },
  'InvalidSecurityGroupID.NotFound': { reason: 'InvalidSecurityGroup', field: 'securityGroups' },
  'InvalidKeyPair.NotFound': { reason: 'InvalidKeyName', field: 'keyName' },
  'InvalidPlacementGroup.Unknown': { reason: 'InvalidPlacement', field: 'placement.groupName' },
  'InvalidCapacityReservationId.NotFound': {
    reason: 'InvalidCapacityReservation',
    field: 'capacityReservation.id',
  },
  InvalidBlockDeviceMapping: { reason: 'InvalidBlockDevices', field: 'blockDevices' },
  InvalidInstanceType: { reason: 'InvalidInstanceType', field: 'instanceType' },
  'InvalidInstanceType.NotFound': { reason: 'InvalidInstanceType', field: 'instanceType' },
  UnsupportedOperation: { reason: 'UnsupportedConfiguration' },
  InvalidParameterValue: { reason: 'InvalidParameter' },
  InvalidParameterCombination: { reason: 'InvalidParameter' },
  InvalidParameterDependency: { reason: 'InvalidParameter' },
  InvalidParameter: { reason: 'InvalidParameter' },
  MissingParameter: { reason: 'InvalidParameter' },
  InvalidUserDataEncoding: { reason: 'InvalidUserData', field: 'userDataSecret' },
  UnauthorizedOperation: { reason: 'Unauthorized', field: 'credentialsSecret' },
  AuthFailure: { reason: 'Unauthorized', field: 'credentialsSecret' },
  InvalidClientTokenId: { reason: 'Unauthorized', field: 'credentialsSecret' },
  SignatureDoesNotMatch: { reason: 'Unauthorized', field: 'credentialsSecret' },
  OptInRequired: { reason: 'Unauthorized', field: 'region' },
  PendingVerification: { reason: 'Unauthorized' },
  Blocked: { reason: 'Unauthorized' },
}

/** Capacity and quota codes: no point retrying soon; the suggested delay is per code. */
const capacity: Record<string, number> = {
  InsufficientInstanceCapacity: 120_000,
  InsufficientHostCapacity: 120_000,
  InsufficientReservedInstanceCapacity: 120_000,
  InsufficientCapacityOnHost: 120_000,
  UnfulfillableCapacity: 120_000,
  ReservationCapacityExceeded: 300_000,
  // The type is not offered in the subnet's zone (or not with these options): another zone or
  // type may be, so it is a miss of this offering, not a configuration error (CAPA #2106).
  Unsupported: 300_000,
  InsufficientFreeAddressesInSubnet: 300_000,
  SpotMaxPriceTooLow: 300_000,
  MaxSpotInstanceCountExceeded: 300_000,
  // Quotas: only a support case or a scale-down fixes these, so retry slowly rather than fail.
  InstanceLimitExceeded: 600_000,
  VcpuLimitExceeded: 600_000,
  VolumeLimitExceeded: 600_000,
}

/**
 * Codes that say one offering (instance type x zone x capacity type) has no capacity now: a
 * launch moves on to its next offering. Quotas are left out: they hold for every offering.
 */
const offeringMisses = new Set([
  'InsufficientInstanceCapacity',
  'InsufficientHostCapacity',
  'InsufficientReservedInstanceCapacity',
  'InsufficientCapacityOnHost',
  'Unsupported',
  'UnfulfillableCapacity',
  'ReservationCapacityExceeded',
  'SpotMaxPriceTooLow',
  'MaxSpotInstanceCountExceeded',
  'InsufficientFreeAddressesInSubnet',
])

/** Whether an SDK error (unclassified) is EC2's answer that an offering has no capacity. */
export function isOfferingMissAnswer(error: unknown): boolean {
  return offeringMisses.has(awsErrorName(error) ?? '')
}

/** Whether a classified error is a capacity miss of the offering the call asked for. */
export function isOfferingMiss(error: unknown): error is CapacityError {
  return error instanceof CapacityError && offeringMisses.has(error.reason)
}

const throttling = new Set([
  'RequestLimitExceeded',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
])

const notFound = new Set(['InvalidInstanceID.NotFound', 'InvalidInstanceID.Malformed'])

/** The AWS error name of a thrown SDK error (`error.name`, e.g. `InvalidAMIID.NotFound`). */
export function awsErrorName(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const named = error as { name?: unknown; Code?: unknown }
  if (typeof named.Code === 'string') return named.Code
  return typeof named.name === 'string' ? named.name : undefined
}

/** Points InvalidParameterValue-style messages at the spec field they name, where one is named. */
function fieldFromMessage(message: string): string | undefined {
  const lower = message.toLowerCase()
  if (lower.includes('instancetype') || lower.includes('instance type')) return 'instanceType'
  if (lower.includes('iaminstanceprofile')) return 'iamInstanceProfile'
  if (lower.includes('kms')) return 'rootVolume.kmsKeyId'
  if (lower.includes('userdata') || lower.includes('user data')) return 'userDataSecret'
  return undefined
}

/**
 * What an error keeps of the SDK exception: never the exception itself, whose `$response`
 * holds sockets and signed request headers that must not reach logs or serialized errors.
 */
function summary(error: unknown, name: string): Record<string, unknown> {
  const meta = (error as { $metadata?: { requestId?: string; httpStatusCode?: number } })?.$metadata
  return { code: name, requestId: meta?.requestId, httpStatusCode: meta?.httpStatusCode }
}

/**
 * The spec field an error names: a path for calls that concern one field (e.g. `ami.id`), or a
 * renaming of the generic field the error code points at (`instanceType`, `subnet`) to the path the
 * spec has (`instanceTypes[1]`, `subnets`), see specFieldsOf.
 */
export type ErrorField = string | ((generic: string) => string)

/**
 * The renaming for a spec that may use the list forms: `instanceType` becomes `instanceTypes[i]`
 * (i: the index of `instanceType` asked for) and `subnet` becomes `subnets` when the spec lists
 * them, so a message never points at a field the spec does not have.
 */
export function specFieldsOf(
  spec: { instanceTypes?: readonly string[] | undefined; subnets?: readonly unknown[] | undefined },
  instanceType?: string,
): (generic: string) => string {
  return (generic) => {
    if (generic === 'instanceType' && spec.instanceTypes) {
      const index = instanceType === undefined ? -1 : spec.instanceTypes.indexOf(instanceType)
      return index >= 0 ? `instanceTypes[${index}]` : 'instanceTypes'
    }
    if (generic === 'subnet' && spec.subnets) return 'subnets'
    return generic
  }
}

/**
 * Maps any error from an EC2 call to a provider error kind. Unknown errors (network, 5xx, SDK bugs)
 * become TransientError, so they are retried with backoff rather than failing a Machine for good.
 * `field` names the spec field (see ErrorField).
 */
export function classifyAwsError(
  error: unknown,
  operation: string,
  field?: ErrorField,
): TransientError | PermanentError {
  const name = awsErrorName(error) ?? 'Unknown'
  const detail = error instanceof Error ? error.message : String(error)
  const message = `EC2 ${operation}: ${name}: ${detail}`
  const cause = summary(error, name)
  const config = invalidConfiguration[name]
  if (config) {
    const generic = typeof field === 'string' ? field : (config.field ?? fieldFromMessage(detail))
    const at = generic !== undefined && typeof field === 'function' ? field(generic) : generic
    const reason =
      config.reason === 'InvalidParameter' && /^instanceTypes?(\[\d+\])?$/.test(at ?? '')
        ? 'InvalidInstanceType'
        : config.reason
    return new InvalidConfigurationError(at ? `${message} (check ${at})` : message, {
      reason,
      cause,
      ...(at ? { field: at } : {}),
    })
  }
  // Our own signal ended the call (the per-call timeout, the reconcile's deadline): EC2 said
  // nothing, so no delay of its own; the runner's backoff paces the retry.
  if (isAbortError(error)) return new TransientError(message, { reason: 'ProviderTimeout', cause })
  const capacityDelay = capacity[name]
  if (capacityDelay !== undefined) {
    return new CapacityError(message, { reason: name, retryAfterMs: capacityDelay, cause })
  }
  if (throttling.has(name)) return new ThrottledError(message, { reason: 'Throttled', cause })
  if (notFound.has(name)) return new NotFoundError(message, { reason: 'InstanceNotFound', cause })
  // IdempotentParameterMismatch: an earlier attempt for this Machine launched with other
  // parameters (the spec changed mid-create); the next `exists` finds that instance by tag.
  return new TransientError(message, {
    reason: name === 'Unknown' ? 'EC2Error' : name,
    retryAfterMs: defaultRetryAfterMs.Transient,
    cause,
  })
}

/** Whether `error` is EC2's "no such instance" (often eventual consistency right after launch). */
export function isInstanceNotFound(error: unknown): boolean {
  return awsErrorName(error) === 'InvalidInstanceID.NotFound'
}
