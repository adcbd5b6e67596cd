import { describe, expect, it } from 'vitest'
import { createCoalescingQueue } from '../../../src/bus/coalescing-queue'
import type { ObjectKey } from '../../../src/kube/object-key'
import type { KubeObject } from '../../../src/kube/resource'
import { manualTimers } from './manual-timers'

const key = (name: string): ObjectKey => ({ kind: 'Widget', namespace: 'ns', name })
const version = (name: string, resourceVersion: string): KubeObject => ({
  metadata: { namespace: 'ns', name, resourceVersion },
})

/** A queue whose single worker is held by `busy` until `release()`; records what each run got. */
function heldQueue(maxObserved?: number) {
  const runs: Array<{ name: string; version: string | undefined }> = []
  let release = () => {}
  const queue = createCoalescingQueue({
    timers: manualTimers(),
    concurrency: 1,
    ...(maxObserved === undefined ? {} : { maxObserved }),
    handler: async (k, observed) => {
      runs.push({ name: k.name, version: observed?.metadata?.resourceVersion })
      // Only the first run waits, so the worker is busy while the test adds.
      if (runs.length === 1) await new Promise<void>((resolve) => (release = resolve))
      return undefined
    },
  })
  queue.add(key('busy'))
  return { queue, runs, release: () => release() }
}

describe('coalescing queue: the delivered object', () => {
  it.each([
    ['one delivery', [['a', '5']], '5'],
    ['a hint without an object keeps the delivered one', [['a', '5'], ['a']], '5'],
    ['an object after a bare hint is kept', [['a'], ['a', '5']], '5'],
    [
      'the same version twice',
      [
        ['a', '5'],
        ['a', '5'],
      ],
      '5',
    ],
    [
      'two versions: read fresh',
      [
        ['a', '5'],
        ['a', '6'],
      ],
      undefined,
    ],
  ])('%s', async (_, adds, expected) => {
    const { queue, runs, release } = heldQueue()
    for (const [name = '', rv] of adds) {
      queue.add(key(name), 0, rv === undefined ? undefined : version(name, rv))
    }
    release()
    await queue.idle()
    expect(runs).toEqual([
      { name: 'busy', version: undefined },
      { name: 'a', version: expected },
    ])
  })

  it('hands the object of an add made during a run to the run after it', async () => {
    const { queue, runs, release } = heldQueue()
    queue.add(key('busy'), 0, version('busy', '7'))
    release()
    await queue.idle()
    expect(runs).toEqual([
      { name: 'busy', version: undefined },
      { name: 'busy', version: '7' },
    ])
  })

  it('keeps no object for a delayed add (a timer reads fresh)', async () => {
    const timers = manualTimers()
    const seen: Array<KubeObject | undefined> = []
    const queue = createCoalescingQueue({
      timers,
      handler: async (_, observed) => {
        seen.push(observed)
        return undefined
      },
    })
    queue.add(key('a'), 100, version('a', '5'))
    timers.advance(100)
    await queue.idle()
    expect(seen).toEqual([undefined])
  })

  it('keeps objects for at most maxObserved waiting keys; the rest are read fresh', async () => {
    const { queue, runs, release } = heldQueue(2)
    for (const name of ['a', 'b', 'c']) queue.add(key(name), 0, version(name, '1'))
    release()
    await queue.idle()
    expect(runs.slice(1)).toEqual([
      { name: 'a', version: '1' },
      { name: 'b', version: '1' },
      { name: 'c', version: undefined },
    ])
  })

  it('frees a slot once a key with an object starts', async () => {
    const { queue, runs, release } = heldQueue(1)
    queue.add(key('a'), 0, version('a', '1'))
    release()
    await queue.idle()
    queue.add(key('b'), 0, version('b', '1'))
    await queue.idle()
    expect(runs.slice(1)).toEqual([
      { name: 'a', version: '1' },
      { name: 'b', version: '1' },
    ])
  })
})
