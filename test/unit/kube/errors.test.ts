import { ApiException } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import { asKubeApiError, hasKubeReason, kubeApiError, kubeReason } from '../../../src/kube/errors'

const status = (reason: string, message = 'm') =>
  JSON.stringify({ kind: 'Status', reason, message })

describe('kube error reasons', () => {
  it.each([
    ['a stale resourceVersion', 409, status('Conflict'), 'Conflict'],
    ['a name collision on create', 409, status('AlreadyExists'), 'AlreadyExists'],
    ['a missing object', 404, status('NotFound'), 'NotFound'],
    ['a rejected object', 422, status('Invalid'), 'Invalid'],
    ['an eviction a PDB forbids', 429, status('TooManyRequests'), 'TooManyRequests'],
    ['an expired watch version', 410, status('Expired'), 'Gone'],
    ['a 409 without a body', 409, '', 'Conflict'],
    ['a 503 with HTML', 503, '<html>', 'ServerError'],
    ['an unknown 418', 418, '', 'Unknown'],
  ])('parses %s', (_situation, code, body, reason) => {
    expect(kubeApiError(code, body).reason).toBe(reason)
  })

  it('carries the server message and the Retry-After delay', () => {
    const error = kubeApiError(429, status('TooManyRequests', 'Cannot evict'), {
      'retry-after': '2',
    })
    expect(error.message).toBe('Cannot evict')
    expect(error.retryAfterMs).toBe(2000)
  })

  it('reads retryAfterSeconds from the Status details', () => {
    const body = JSON.stringify({ reason: 'TooManyRequests', details: { retryAfterSeconds: 3 } })
    expect(kubeApiError(429, body).retryAfterMs).toBe(3000)
  })

  it('converts an ApiException from the generated client', () => {
    const exception = new ApiException(404, 'not found', status('NotFound'), {})
    expect(asKubeApiError(exception)?.reason).toBe('NotFound')
    expect(hasKubeReason(exception, 'NotFound', 'Gone')).toBe(true)
  })

  it('leaves other errors alone', () => {
    expect(asKubeApiError(new Error('socket hang up'))).toBeUndefined()
    expect(hasKubeReason(new Error('x'), 'NotFound')).toBe(false)
  })

  it('prefers a known Status reason over the HTTP code', () => {
    expect(kubeReason(400, { reason: 'Invalid' })).toBe('Invalid')
  })
})
