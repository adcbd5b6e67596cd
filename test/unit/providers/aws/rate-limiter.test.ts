import { DescribeRegionsCommand, TerminateInstancesCommand } from '@aws-sdk/client-ec2'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createClientPool } from '../../../../src/providers/aws/client-pool'
import { createRateLimiter } from '../../../../src/providers/aws/rate-limiter'

describe('createRateLimiter', () => {
  it('lets a burst through at once and makes the next call wait', async () => {
    // One call per 1000 s after the burst: a call that waits would wait that long.
    const limiter = createRateLimiter({ perSecond: 0.001, burst: 3, now: () => 0 })
    const controller = new AbortController()
    const granted: number[] = []
    const takes = [0, 1, 2, 3].map((i) =>
      limiter.take(controller.signal).then(() => void granted.push(i)),
    )
    // Whatever resolves without a timer has resolved once the event loop turns.
    await new Promise((resolve) => setImmediate(resolve))
    expect(granted).toEqual([0, 1, 2])
    controller.abort(new Error('done'))
    await expect(takes[3]).rejects.toThrow('done')
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

describe('createRateLimiter after an aborted wait', () => {
  it('hands the slot back, so the next caller waits only for its own turn', async () => {
    let t = 0
    const limiter = createRateLimiter({ perSecond: 1, burst: 1, now: () => t })
    await limiter.take()
    const controller = new AbortController()
    const gaveUp = limiter.take(controller.signal)
    controller.abort(new Error('deadline'))
    await expect(gaveUp).rejects.toThrow('deadline')
    // One second later the slot the aborted waiter booked is free again: no wait at all.
    t = 1000
    let started = false
    const next = limiter.take().then(() => {
      started = true
    })
    await Promise.resolve()
    await Promise.resolve()
    expect(started).toBe(true)
    await next
  })
})

/**
 * A client of a pool whose named bucket allows one call per 1000 s, against port 9 (discard),
 * which refuses at once: a call that gets a slot fails fast without a server, one that waits for a
 * slot would wait about 17 minutes. Closed when the test ends.
 */
function slowBucketClient(bucket: 'callsPerSecond' | 'describeCallsPerSecond') {
  const pool = createClientPool({ endpoint: 'http://127.0.0.1:9', [bucket]: 0.001, maxAttempts: 1 })
  onTestFinished(() => pool.close())
  return pool.get('eu-west-1', { accessKeyId: 'A', secretAccessKey: 'a' })
}

describe('the EC2 client rate limit', () => {
  it('stops waiting for a slot when the call is aborted', async () => {
    const client = slowBucketClient('describeCallsPerSecond')
    await expect(client.send(new DescribeRegionsCommand({}))).rejects.toThrow()
    const controller = new AbortController()
    const waiting = client.send(new DescribeRegionsCommand({}), { abortSignal: controller.signal })
    controller.abort(new Error('reconcile deadline'))
    await expect(waiting).rejects.toThrow('reconcile deadline')
  })

  it('does not make reads wait behind launches: Describe* calls have their own bucket', async () => {
    const client = slowBucketClient('callsPerSecond')
    await expect(
      client.send(new TerminateInstancesCommand({ InstanceIds: ['i-1'] })),
    ).rejects.toThrow()
    await expect(client.send(new DescribeRegionsCommand({}))).rejects.toThrow(
      /ECONNREFUSED|connect/,
    )
  })
})
