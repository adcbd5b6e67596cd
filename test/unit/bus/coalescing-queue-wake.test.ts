import { describe, expect, it } from 'vitest'
import { createCoalescingQueue } from '../../../src/bus/coalescing-queue'
import type { OwnChangeWake } from '../../../src/bus/wake'
import type { ObjectKey } from '../../../src/kube/object-key'
import { manualTimers } from './manual-timers'

const key: ObjectKey = { kind: 'Widget', namespace: 'ns', name: 'w' }
const own = (resourceVersion: string, delivered: number): OwnChangeWake => ({
  type: 'own-change',
  resourceVersion,
  delivered,
})

/** A queue whose first run of `key` holds the worker until `release()`; records each run's wake. */
function heldQueue() {
  const timers = manualTimers()
  const wakes: Array<string | undefined> = []
  let release = () => {}
  const queue = createCoalescingQueue({
    timers,
    concurrency: 1,
    handler: async (_k, _observed, _related, wake) => {
      wakes.push(wake?.resourceVersion)
      if (wakes.length === 1) await new Promise<void>((resolve) => (release = resolve))
      return undefined
    },
  })
  queue.add(key)
  return { queue, timers, wakes, release: () => release() }
}

describe('coalescing queue: why a key runs', () => {
  it('hands on the newest own change when only own changes came while the key ran', async () => {
    const { queue, wakes, release } = heldQueue()
    queue.add(key, 0, undefined, undefined, own('6', 2))
    queue.add(key, 0, undefined, undefined, own('5', 1))
    release()
    await queue.idle()
    expect(wakes).toEqual([undefined, '6'])
  })

  it('keeps the wake when the run that just ended asks for a timer (the runner then holds it)', async () => {
    const timers = manualTimers()
    const wakes: Array<string | undefined> = []
    let queue: ReturnType<typeof createCoalescingQueue> | undefined
    queue = createCoalescingQueue({
      timers,
      concurrency: 1,
      handler: async (_k, _observed, _related, wake) => {
        wakes.push(wake?.resourceVersion)
        // The first run's own write comes back while it runs, another key waits for the only
        // worker, and the run then asks for a timer.
        if (wakes.length === 1) {
          queue?.add(key, 0, undefined, undefined, own('8', 1))
          queue?.add({ ...key, name: 'other' })
        }
        return wakes.length === 1 ? { requeueAfterMs: 500 } : undefined
      },
    })
    queue.add(key)
    await queue.idle()
    expect(wakes).toEqual([undefined, undefined, '8'])
  })

  it('hands on no wake once anything else (a mapped change, a timer) woke the key too', async () => {
    const { queue, timers, wakes, release } = heldQueue()
    queue.add(key, 0, undefined, undefined, own('6', 2))
    queue.add(key)
    release()
    await queue.idle()
    timers.advance(10)
    await queue.idle()
    // An own change replaces a delayed run (the runner re-delays it when the change was its own).
    queue.add(key, 10)
    queue.add(key, 0, undefined, undefined, own('7', 3))
    await queue.idle()
    expect(wakes).toEqual([undefined, undefined, '7'])
  })
})
