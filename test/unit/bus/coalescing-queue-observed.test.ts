import { describe, expect, it, vi } from 'vitest'
import { createCoalescingQueue } from '../../../src/bus/coalescing-queue'
import type { ObjectKey } from '../../../src/kube/object-key'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
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

  it('counts related objects against maxObserved too', async () => {
    const { queue, runs, release } = heldQueue(3)
    const node = (name: string) => [{ type: coreTypes.node, obj: version(name, '1') }]
    // a holds its own object and its Node (2 of 3); b's two would pass the bound.
    queue.add(key('a'), 0, version('a', '1'), node('node-a'))
    queue.add(key('b'), 0, version('b', '1'), node('node-b'))
    // c's one fits; a second hint for a with the same Node adds nothing.
    queue.add(key('c'), 0, version('c', '1'))
    queue.add(key('a'), 0, undefined, node('node-a'))
    release()
    await queue.idle()
    expect(runs.slice(1)).toEqual([
      { name: 'a', version: '1' },
      { name: 'b', version: undefined },
      { name: 'c', version: '1' },
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

  it.each([
    ['one delivery', [['n', '3']], ['n@3']],
    [
      'two hints with the same Node',
      [
        ['n', '3'],
        ['n', '3'],
      ],
      ['n@3'],
    ],
    ['a bare hint keeps the Node', [['n', '3'], []], ['n@3']],
    [
      'two versions of the Node: read fresh',
      [
        ['n', '3'],
        ['n', '4'],
      ],
      [],
    ],
    [
      'two different Nodes: both',
      [
        ['n', '3'],
        ['m', '1'],
      ],
      ['n@3', 'm@1'],
    ],
  ])('related objects: %s', async (_, adds, expected) => {
    const seen: string[][] = []
    let release = () => {}
    const queue = createCoalescingQueue({
      timers: manualTimers(),
      concurrency: 1,
      handler: async (k, _observed, related) => {
        seen.push(
          (related ?? []).map(
            ({ obj }) => `${obj.metadata?.name}@${obj.metadata?.resourceVersion}`,
          ),
        )
        if (k.name === 'busy') await new Promise<void>((resolve) => (release = resolve))
        return undefined
      },
    })
    queue.add(key('busy'))
    for (const [name, rv] of adds) {
      const related =
        name === undefined ? undefined : [{ type: coreTypes.node, obj: version(name, rv ?? '') }]
      queue.add(key('a'), 0, undefined, related)
    }
    release()
    await queue.idle()
    expect(seen).toEqual([[], expected])
  })
})

describe('coalescing queue: readyBelow', () => {
  it('lets a producer add only while fewer keys than asked wait', async () => {
    const starts: string[] = []
    const finish: Array<() => void> = []
    const queue = createCoalescingQueue({
      timers: manualTimers(),
      concurrency: 1,
      handler: async (k) => {
        starts.push(k.name)
        await new Promise<void>((resolve) => finish.push(resolve))
        return undefined
      },
    })
    const added: string[] = []
    const producer = (async () => {
      for (const name of ['a', 'b', 'c', 'd']) {
        await queue.readyBelow(2)
        queue.add(key(name))
        added.push(name)
      }
    })()
    await vi.waitFor(() => expect(added).toEqual(['a', 'b', 'c']))
    // a runs, b and c wait: d is held back until one of them starts.
    expect(queue.depth()).toBe(2)
    finish.shift()?.()
    await producer
    expect(added).toEqual(['a', 'b', 'c', 'd'])
    expect(starts).toEqual(['a', 'b'])
    const stopped = queue.stop()
    finish.shift()?.()
    await stopped
  })

  it('releases a waiting producer when the queue stops', async () => {
    const queue = createCoalescingQueue({
      timers: manualTimers(),
      concurrency: 1,
      handler: () => new Promise(() => {}),
    })
    for (const name of ['a', 'b', 'c']) queue.add(key(name))
    const waiting = queue.readyBelow(1)
    void queue.stop()
    await expect(waiting).resolves.toBeUndefined()
  })
})

describe('coalescing queue: related objects', () => {
  const node = (resourceVersion: string, delivered: number) => ({
    type: coreTypes.node,
    obj: { metadata: { name: 'n', resourceVersion } },
    delivered,
  })

  it('hands the run the Node its watch delivered last, beside the delivered Machine', async () => {
    const seen: Array<{ own?: string; nodes?: string[] }> = []
    let release = () => {}
    const queue = createCoalescingQueue({
      timers: manualTimers(),
      concurrency: 1,
      handler: async (k, observed, related) => {
        seen.push({
          own: observed?.metadata?.resourceVersion,
          nodes: related?.map((r) => r.obj.metadata?.resourceVersion ?? ''),
        })
        if (k.name === 'busy') await new Promise<void>((resolve) => (release = resolve))
        return undefined
      },
    })
    queue.add(key('busy'))
    queue.add(key('a'), 0, undefined, [node('6', 2)])
    queue.add(key('a'), 0, version('a', '3'))
    queue.add(key('a'), 0, undefined, [node('5', 1)])
    release()
    await queue.idle()
    expect(seen[1]).toEqual({ own: '3', nodes: ['6'] })
  })

  it('keeps no related object for a delayed add', async () => {
    const timers = manualTimers()
    const seen: unknown[] = []
    const queue = createCoalescingQueue({
      timers,
      handler: async (_, __, related) => {
        seen.push(related)
        return undefined
      },
    })
    queue.add(key('a'), 100, undefined, [node('5', 1)])
    timers.advance(100)
    await queue.idle()
    expect(seen).toEqual([undefined])
  })
})
