import { describe, expect, it } from 'vitest'
import { TransientError } from '../../../../src/errors'
import { classifyAwsError, specFieldsOf } from '../../../../src/providers/aws/errors'
import {
  CapacityError,
  InvalidConfigurationError,
  NotFoundError,
  ThrottledError,
} from '../../../../src/providers/errors'

const kinds = {
  InvalidConfiguration: InvalidConfigurationError,
  Capacity: CapacityError,
  Throttled: ThrottledError,
  NotFound: NotFoundError,
  Transient: TransientError,
} as const

/** An error shaped like the SDK's ServiceException (its `name` is the AWS error code). */
function awsError(name: string, message = 'details'): Error {
  const error = new Error(message)
  error.name = name
  return error
}

describe('classifyAwsError', () => {
  it.each([
    ['InvalidAMIID.NotFound', 'InvalidConfiguration', 'InvalidAMI', 'ami'],
    ['InvalidAMIID.Malformed', 'InvalidConfiguration', 'InvalidAMI', 'ami'],
    ['InvalidSubnetID.NotFound', 'InvalidConfiguration', 'InvalidSubnet', 'subnet'],
    ['InvalidGroup.NotFound', 'InvalidConfiguration', 'InvalidSecurityGroup', 'securityGroups'],
    ['InvalidKeyPair.NotFound', 'InvalidConfiguration', 'InvalidKeyName', 'keyName'],
    ['UnauthorizedOperation', 'InvalidConfiguration', 'Unauthorized', 'credentialsSecret'],
    ['AuthFailure', 'InvalidConfiguration', 'Unauthorized', 'credentialsSecret'],
    [
      'InvalidPlacementGroup.Unknown',
      'InvalidConfiguration',
      'InvalidPlacement',
      'placement.groupName',
    ],
    ['InsufficientInstanceCapacity', 'Capacity', 'InsufficientInstanceCapacity', undefined],
    ['InstanceLimitExceeded', 'Capacity', 'InstanceLimitExceeded', undefined],
    ['SpotMaxPriceTooLow', 'Capacity', 'SpotMaxPriceTooLow', undefined],
    ['RequestLimitExceeded', 'Throttled', 'Throttled', undefined],
    ['Throttling', 'Throttled', 'Throttled', undefined],
    ['InvalidInstanceID.NotFound', 'NotFound', 'InstanceNotFound', undefined],
    ['InternalError', 'Transient', 'InternalError', undefined],
    ['IdempotentParameterMismatch', 'Transient', 'IdempotentParameterMismatch', undefined],
    ['ECONNREFUSED', 'Transient', 'ECONNREFUSED', undefined],
  ])('classifies %s as %s (%s)', (name, kind, reason, field) => {
    const error = classifyAwsError(awsError(name), 'RunInstances')
    expect(error).toBeInstanceOf(kinds[kind as keyof typeof kinds])
    expect(error.reason).toBe(reason)
    if (field !== undefined) expect((error as InvalidConfigurationError).field).toBe(field)
    expect(error.message).toContain(name)
    expect(error.message).toContain('RunInstances')
  })

  it.each([
    ["Invalid value 'm9.huge' for InstanceType.", 'instanceType', 'InvalidInstanceType'],
    [
      'Value (nodes) for parameter iamInstanceProfile.name is invalid.',
      'iamInstanceProfile',
      'InvalidParameter',
    ],
    ['something else', undefined, 'InvalidParameter'],
  ])('points InvalidParameterValue "%s" at %s', (message, field, reason) => {
    const error = classifyAwsError(awsError('InvalidParameterValue', message), 'RunInstances')
    expect(error).toBeInstanceOf(InvalidConfigurationError)
    expect((error as InvalidConfigurationError).field).toBe(field)
    expect(error.reason).toBe(reason)
  })

  it.each([
    [
      'the list form',
      'InvalidInstanceType',
      { instanceTypes: ['m5.large', 'm9.huge'] },
      'instanceTypes[1]',
    ],
    ['the one-element form', 'InvalidInstanceType', {}, 'instanceType'],
    ['a subnet in the list form', 'InvalidSubnetID.NotFound', { subnets: [{}] }, 'subnets'],
    ['a subnet in the one-element form', 'InvalidSubnetID.NotFound', {}, 'subnet'],
  ])('names the field as %s of the spec has it', (_form, code, spec, field) => {
    const error = classifyAwsError(awsError(code), 'RunInstances', specFieldsOf(spec, 'm9.huge'))
    expect((error as InvalidConfigurationError).field).toBe(field)
    expect(error.message).toContain(`(check ${field})`)
  })

  it('reads an InvalidParameterValue about the type of a list as an invalid instance type', () => {
    const message = "Invalid value 'm9.huge' for InstanceType."
    const fields = specFieldsOf({ instanceTypes: ['m9.huge'] }, 'm9.huge')
    const error = classifyAwsError(
      awsError('InvalidParameterValue', message),
      'RunInstances',
      fields,
    )
    expect(error.reason).toBe('InvalidInstanceType')
    expect((error as InvalidConfigurationError).field).toBe('instanceTypes[0]')
  })

  it('gives capacity and quota errors long, code-specific delays', () => {
    const capacity = classifyAwsError(awsError('InsufficientInstanceCapacity'), 'RunInstances')
    const quota = classifyAwsError(awsError('InstanceLimitExceeded'), 'RunInstances')
    expect(capacity).toBeInstanceOf(CapacityError)
    expect(quota).toBeInstanceOf(CapacityError)
    expect((quota as CapacityError).retryAfterMs).toBeGreaterThan(
      (capacity as CapacityError).retryAfterMs ?? 0,
    )
  })

  it('treats a thrown non-error as transient', () => {
    const error = classifyAwsError('socket hang up', 'DescribeInstances')
    expect(error).toBeInstanceOf(TransientError)
    expect((error as TransientError).retryAfterMs).toBe(15_000)
  })

  it.each([
    ['its timeout', new DOMException('The operation timed out', 'TimeoutError')],
    ['an abort', Object.assign(new Error('Request aborted'), { name: 'AbortError' })],
  ])('names a call ended by %s ProviderTimeout, without a delay of its own', (_, thrown) => {
    const error = classifyAwsError(thrown, 'TerminateInstances')
    expect(error).toBeInstanceOf(TransientError)
    expect(error.reason).toBe('ProviderTimeout')
    expect((error as TransientError).retryAfterMs).toBeUndefined()
  })
})
