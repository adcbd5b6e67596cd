import { describe, expect, it } from 'vitest'
import { PermanentError, TransientError } from '../../../src/errors'
import {
  CapacityError,
  defaultRetryAfterMs,
  InvalidConfigurationError,
  NotFoundError,
  ThrottledError,
} from '../../../src/providers/errors'
import { hasOwnOutcome, toProviderFailure } from '../../../src/providers/typed-actuator'
import { classifyError } from '../../../src/reconcile/runtime/classify'

describe('provider errors', () => {
  it.each([
    [
      'invalid configuration',
      new InvalidConfigurationError('bad', { reason: 'R' }),
      PermanentError,
    ],
    ['capacity', new CapacityError('c', { reason: 'R' }), TransientError],
    ['throttled', new ThrottledError('t', { reason: 'R' }), TransientError],
    ['not found', new NotFoundError('n', { reason: 'R' }), TransientError],
  ] as const)('a %s error is one of the reconcile error types', (_, error, type) => {
    expect(error).toBeInstanceOf(type)
    expect(error.reason).toBe('R')
  })

  it.each([
    ['capacity', new CapacityError('c', { reason: 'R' }), defaultRetryAfterMs.Capacity],
    ['throttled', new ThrottledError('t', { reason: 'R' }), defaultRetryAfterMs.Throttled],
    ['capacity with a delay', new CapacityError('c', { reason: 'R', retryAfterMs: 5 }), 5],
  ])('a %s error suggests a retry delay', (_, error, delay) => {
    expect(error.retryAfterMs).toBe(delay)
  })

  it('keeps the field an invalid configuration points at', () => {
    const error = new InvalidConfigurationError('x', { reason: 'InvalidAMI', field: 'ami.id' })
    expect(error.field).toBe('ami.id')
    expect(error.reason).toBe('InvalidAMI')
  })

  it.each([
    [
      'throttled',
      new ThrottledError('t', { reason: 'Throttled' }),
      { type: 'retry', reason: 'Throttled', retryAfterMs: 20_000 },
    ],
    [
      'invalid configuration',
      new InvalidConfigurationError('bad credentials', { reason: 'Unauthorized' }),
      { type: 'permanent', reason: 'Unauthorized', message: 'bad credentials' },
    ],
  ])('the runner classifies a %s error by its type, not as Unknown', (_, error, outcome) => {
    expect(classifyError(error)).toEqual(outcome)
  })
})

describe('the actuator boundary', () => {
  it.each([
    ['an Error', new Error('boom'), 'boom', 'ProviderError'],
    ['a string', 'boom', 'boom', 'ProviderError'],
    [
      'an aborted call',
      new DOMException('timed out', 'TimeoutError'),
      'timed out',
      'ProviderTimeout',
    ],
  ])('maps %s nobody classified to a transient error', (_, thrown, message, reason) => {
    const error = toProviderFailure(thrown)
    expect(error).toBeInstanceOf(TransientError)
    expect(error.message).toBe(message)
    expect(error.reason).toBe(reason)
    expect((error as TransientError).retryAfterMs).toBeUndefined()
  })

  it('passes typed errors through unchanged', () => {
    const error = new CapacityError('c', { reason: 'R' })
    expect(toProviderFailure(error)).toBe(error)
  })

  it.each([
    ['a throttled error (its delay)', new ThrottledError('t', { reason: 'Throttled' }), true],
    ['an invalid configuration', new InvalidConfigurationError('x', { reason: 'R' }), true],
    [
      'a transient error without a delay (runner backoff)',
      toProviderFailure(new Error('x')),
      false,
    ],
    ['an apiserver error', new Error('Conflict'), false],
  ])('%s is handled by the controller itself: %s', (_, error, own) => {
    expect(hasOwnOutcome(error)).toBe(own)
  })
})
