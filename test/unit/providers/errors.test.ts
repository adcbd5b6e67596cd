import { describe, expect, it } from 'vitest'
import { PermanentError, TransientError } from '../../../src/errors'
import { KubeApiError } from '../../../src/kube/errors'
import {
  CapacityError,
  defaultRetryAfterMs,
  InvalidConfigurationError,
  NotFoundError,
  ThrottledError,
} from '../../../src/providers/errors'
import { classifyError, classifyProviderError } from '../../../src/reconcile/runtime/classify'

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

describe('a failed provider call', () => {
  it.each([
    ['an Error', new Error('boom'), { reason: 'ProviderError', message: 'boom' }],
    ['a string', 'boom', { reason: 'ProviderError', message: 'boom' }],
    [
      'a timed-out call',
      new DOMException('timed out', 'TimeoutError'),
      { reason: 'ProviderTimeout', message: 'timed out' },
    ],
    [
      'an aborted call',
      new DOMException('aborted', 'AbortError'),
      { reason: 'ProviderTimeout', message: 'aborted' },
    ],
  ])('%s nobody classified is transient, paced by the runner backoff', (_, thrown, named) => {
    expect(classifyProviderError(thrown)).toEqual({ ...named, permanent: false })
  })

  it.each([
    [
      'a throttled error keeps its delay',
      new ThrottledError('t', { reason: 'Throttled' }),
      { reason: 'Throttled', message: 't', permanent: false, retryAfterMs: 20_000 },
    ],
    [
      'a transient error without a delay has none',
      new TransientError('t', { reason: 'Flaky' }),
      { reason: 'Flaky', message: 't', permanent: false, retryAfterMs: undefined },
    ],
    [
      'an invalid configuration is permanent',
      new InvalidConfigurationError('x', { reason: 'Unauthorized' }),
      { reason: 'Unauthorized', message: 'x', permanent: true },
    ],
    [
      'an apiserver refusal of what the provider wrote is permanent and says what to change',
      new KubeApiError({
        code: 422,
        reason: 'Invalid',
        message: 'Node "n" is invalid: metadata.labels: Invalid value: "bad key!"',
      }),
      {
        reason: 'InvalidProviderOutput',
        message:
          'The apiserver refused what this Machine\'s provider spec and name produced; change them: Node "n" is invalid: metadata.labels: Invalid value: "bad key!"',
        permanent: true,
      },
    ],
  ])('%s', (_, error, failure) => {
    expect(classifyProviderError(error)).toEqual(failure)
  })
})
