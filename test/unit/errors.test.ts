import { describe, expect, it } from 'vitest'
import { errorMessage, PermanentError, TransientError } from '../../src/errors'

describe('typed errors', () => {
  it('keeps the retry delay and reason of a transient error', () => {
    const error = new TransientError('throttled', { reason: 'Throttled', retryAfterMs: 1500 })
    expect(error).toBeInstanceOf(Error)
    expect(error.reason).toBe('Throttled')
    expect(error.retryAfterMs).toBe(1500)
  })

  it('defaults a transient error to no delay of its own', () => {
    const error = new TransientError('flaky')
    expect(error.reason).toBe('Transient')
    expect(error.retryAfterMs).toBeUndefined()
  })

  it('keeps the reason and message of a permanent error', () => {
    const error = new PermanentError('InvalidProviderSpec', 'instanceType is required')
    expect(error.reason).toBe('InvalidProviderSpec')
    expect(errorMessage(error)).toBe('instanceType is required')
  })

  it('reads the message of anything thrown', () => {
    expect(errorMessage('plain')).toBe('plain')
  })
})
