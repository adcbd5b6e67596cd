import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createCoalescingQueue } from '../../../src/bus/coalescing-queue'
import { formatKey, type ObjectKey } from '../../../src/kube/object-key'
import { manualTimers } from './manual-timers'

const key = (name: string): ObjectKey => ({ kind: 'Widget', namespace: 'ns', name })

/** A handler whose runs the test finishes one by one. */
function gatedHandler() {
  const runs: string[] = []
  const open = new Map<string, Array<() => void>>()
  let concurrent = 0
  let maxConcurrent = 0
  const handler = async (k: ObjectKey) => {
    const id = formatKey(k)
    runs.push(k.name)
    concurrent++
    maxConcurrent = Math.max(maxConcurrent, concurrent)
    await new Promise<void>((resolve) => open.set(id, [...(open.get(id) ?? []), resolve]))
    concurrent--
    return undefined
  }
  const finish = async (name: string) => {
    const id = formatKey(key(name))
    const list = open.get(id) ?? []
    list.shift()?.()
    open.set(id, list)
    // Let the queue's continuation run.
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { handler, runs, finish, maxConcurrent: () => maxConcurrent }
}

describe('coalescing queue', () => {
  it('collapses a burst for one waiting key into one run', async () => {
    const gate = gatedHandler()
    // One worker, occupied, so the burst waits behind it.
    const queue = createCoalescingQueue({
      timers: manualTimers(),
      concurrency: 1,
      handler: gate.handler,
    })
    queue.add(key('busy'))
    for (let i = 0; i < 100; i++) queue.add(key('a'))
    expect(queue.depth()).toBe(1)
    await gate.finish('busy')
    await gate.finish('a')
    await queue.idle()
    expect(gate.runs).toEqual(['busy', 'a'])
  })

  it('never runs a key twice at once and runs it exactly once more after a change during a run', async () => {
    const gate = gatedHandler()
    const queue = createCoalescingQueue({
      timers: manualTimers(),
      concurrency: 4,
      handler: gate.handler,
    })
    queue.add(key('a'))
    await new Promise((resolve) => setImmediate(resolve))
    queue.add(key('a'))
    queue.add(key('a'))
    expect(gate.runs).toEqual(['a'])
    await gate.finish('a')
    expect(gate.runs).toEqual(['a', 'a'])
    await gate.finish('a')
    await queue.idle()
    expect(gate.runs).toEqual(['a', 'a'])
    expect(gate.maxConcurrent()).toBe(1)
  })

  it('bounds concurrency across keys', async () => {
    const gate = gatedHandler()
    const queue = createCoalescingQueue({
      timers: manualTimers(),
      concurrency: 2,
      handler: gate.handler,
    })
    for (const name of ['a', 'b', 'c', 'd']) queue.add(key(name))
    expect(queue.running()).toBe(2)
    expect(queue.depth()).toBe(2)
    for (const name of ['a', 'b', 'c', 'd']) await gate.finish(name)
    await queue.idle()
    expect(gate.runs).toEqual(['a', 'b', 'c', 'd'])
    expect(gate.maxConcurrent()).toBe(2)
  })

  it('runs a delayed key when its time comes, keeping the earliest due time', async () => {
    const timers = manualTimers()
    const runs: string[] = []
    const queue = createCoalescingQueue({
      timers,
      handler: async (k) => {
        runs.push(k.name)
        return undefined
      },
    })
    queue.add(key('a'), 1000)
    queue.add(key('a'), 5000)
    queue.add(key('a'), 300)
    expect(queue.depth()).toBe(1)
    timers.advance(299)
    expect(runs).toEqual([])
    timers.advance(1)
    await queue.idle()
    expect(runs).toEqual(['a'])
    timers.advance(10_000)
    await queue.idle()
    expect(runs).toEqual(['a'])
  })

  it('lets an immediate add supersede a delayed one', async () => {
    const timers = manualTimers()
    const runs: string[] = []
    const queue = createCoalescingQueue({
      timers,
      handler: async (k) => {
        runs.push(k.name)
        return undefined
      },
    })
    queue.add(key('a'), 1000)
    queue.add(key('a'))
    await queue.idle()
    expect(runs).toEqual(['a'])
    expect(timers.pending()).toBe(0)
  })

  it('requeues after the delay the handler returns', async () => {
    const timers = manualTimers()
    let calls = 0
    const queue = createCoalescingQueue({
      timers,
      handler: async () => {
        calls++
        return calls === 1 ? { requeueAfterMs: 2000 } : undefined
      },
    })
    queue.add(key('a'))
    await queue.idle()
    expect(calls).toBe(1)
    timers.advance(2000)
    await queue.idle()
    expect(calls).toBe(2)
  })

  it('retries a key whose handler throws after errorRetryMs', async () => {
    const timers = manualTimers()
    const errors: string[] = []
    let calls = 0
    const queue = createCoalescingQueue({
      timers,
      errorRetryMs: 50,
      onError: (k) => errors.push(k.name),
      handler: async () => {
        calls++
        if (calls === 1) throw new Error('boom')
        return undefined
      },
    })
    queue.add(key('a'))
    await queue.idle()
    timers.advance(50)
    await queue.idle()
    expect(errors).toEqual(['a'])
    expect(calls).toBe(2)
  })

  it('stops: cancels delayed keys and ignores new ones', async () => {
    const timers = manualTimers()
    let calls = 0
    const queue = createCoalescingQueue({
      timers,
      handler: async () => {
        calls++
        return undefined
      },
    })
    queue.add(key('a'), 100)
    await queue.stop()
    queue.add(key('b'))
    timers.advance(1000)
    expect(calls).toBe(0)
    expect(queue.depth()).toBe(0)
  })

  it('never loses an add and never overlaps a key, for any interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.boolean()), { maxLength: 40 }),
        async (steps) => {
          const running = new Set<string>()
          let overlap = false
          // For each key: the add counter when its latest run started.
          const added = new Map<string, number>()
          const seenAtStart = new Map<string, number>()
          const queue = createCoalescingQueue({
            timers: manualTimers(),
            concurrency: 2,
            handler: async (k) => {
              if (running.has(k.name)) overlap = true
              running.add(k.name)
              seenAtStart.set(k.name, added.get(k.name) ?? 0)
              await new Promise((resolve) => setImmediate(resolve))
              running.delete(k.name)
              return undefined
            },
          })
          for (const [name, yieldAfter] of steps) {
            added.set(name, (added.get(name) ?? 0) + 1)
            queue.add(key(name))
            if (yieldAfter) await new Promise((resolve) => setImmediate(resolve))
          }
          await queue.idle()
          // Every key's last run started after its last add: no update was lost.
          for (const [name, count] of added) {
            if (seenAtStart.get(name) !== count) return false
          }
          return !overlap
        },
      ),
      { numRuns: 50 },
    )
  })
})
