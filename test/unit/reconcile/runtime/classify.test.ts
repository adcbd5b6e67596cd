import { describe, expect, it } from 'vitest'
import { PermanentError, TransientError } from '../../../../src/errors'
import { kubeApiError } from '../../../../src/kube/errors'
import { classifyError, conflictRetryMs } from '../../../../src/reconcile/runtime/classify'

const kube = (code: number, reason: string) => kubeApiError(code, JSON.stringify({ reason }))

describe('classifyError', () => {
  it.each([
    [
      'a permanent error',
      new PermanentError('BadSpec', 'no'),
      { type: 'permanent', reason: 'BadSpec' },
    ],
    [
      'a transient error with a delay',
      new TransientError('x', { retryAfterMs: 7 }),
      { type: 'retry', retryAfterMs: 7 },
    ],
    [
      'a transient error without one',
      new TransientError('x'),
      { type: 'retry', retryAfterMs: undefined },
    ],
    [
      'a stale write',
      kube(409, 'Conflict'),
      { type: 'retry', reason: 'Conflict', retryAfterMs: conflictRetryMs },
    ],
    [
      'a child someone else created',
      kube(409, 'AlreadyExists'),
      { type: 'retry', retryAfterMs: conflictRetryMs },
    ],
    [
      'an object the apiserver rejects',
      kube(422, 'Invalid'),
      { type: 'permanent', reason: 'Invalid' },
    ],
    [
      'a throttled call',
      kube(429, 'TooManyRequests'),
      { type: 'retry', reason: 'TooManyRequests' },
    ],
    [
      'an apiserver outage',
      kube(503, ''),
      { type: 'retry', reason: 'ServerError', retryAfterMs: undefined },
    ],
    [
      'anything unknown',
      new Error('boom'),
      { type: 'retry', reason: 'Unknown', retryAfterMs: undefined },
    ],
  ])('classifies %s', (_situation, error, expected) => {
    expect(classifyError(error)).toMatchObject(expected)
  })
})
