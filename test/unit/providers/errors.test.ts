import { describe, expect, it } from 'vitest'
import {
  CapacityError,
  defaultRetryAfterMs,
  InvalidConfigurationError,
  isProviderError,
  NotFoundError,
  ThrottledError,
  TransientError,
  toProviderError,
} from '../../../src/providers/errors'

describe('provider errors', () => {
  it.each([
    [
      'invalid configuration',
      new InvalidConfigurationError('bad', { reason: 'R' }),
      'InvalidConfiguration',
      true,
    ],
    ['transient', new TransientError('t', { reason: 'R' }), 'Transient', false],
    ['capacity', new CapacityError('c', { reason: 'R' }), 'Capacity', false],
    ['throttled', new ThrottledError('t', { reason: 'R' }), 'Throttled', false],
    ['not found', new NotFoundError('n', { reason: 'R' }), 'NotFound', false],
  ] as const)('a %s error has its kind and permanence', (_, error, kind, permanent) => {
    expect(error.kind).toBe(kind)
    expect(error.permanent).toBe(permanent)
    expect(isProviderError(error)).toBe(true)
    expect(error).toBeInstanceOf(Error)
  })

  it.each([
    ['transient', new TransientError('t', { reason: 'R' }), defaultRetryAfterMs.Transient],
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
    ['an Error', new Error('boom'), 'boom'],
    ['a string', 'boom', 'boom'],
  ])('wraps %s nobody classified as a transient error', (_, thrown, message) => {
    const error = toProviderError(thrown)
    expect(error).toBeInstanceOf(TransientError)
    expect(error.message).toBe(message)
    expect(error.reason).toBe('ProviderError')
  })

  it('passes provider errors through unchanged', () => {
    const error = new CapacityError('c', { reason: 'R' })
    expect(toProviderError(error)).toBe(error)
  })
})
