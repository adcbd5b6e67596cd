import { describe, expect, it } from 'vitest'
import { createRateLimiter } from '../../../../src/providers/aws/rate-limiter'

describe('createRateLimiter', () => {
  it('lets a burst through at once', async () => {
    const limiter = createRateLimiter({ perSecond: 1000, burst: 3, now: () => 0 })
    for (let i = 0; i < 3; i++) await limiter.take()
  })

  it('makes the call after the burst wait and gives up when aborted', async () => {
    const limiter = createRateLimiter({ perSecond: 0.001, burst: 1, now: () => 0 })
    await limiter.take()
    const controller = new AbortController()
    const waiting = limiter.take(controller.signal)
    controller.abort(new Error('deadline'))
    await expect(waiting).rejects.toThrow('deadline')
  })

  it('rejects at once when already aborted', async () => {
    const limiter = createRateLimiter({ perSecond: 0.001, burst: 1, now: () => 0 })
    await limiter.take()
    await expect(limiter.take(AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone')
  })
})
