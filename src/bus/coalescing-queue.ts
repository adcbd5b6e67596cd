/**
 * @module A per-key work queue in the manner of client-go's workqueue: bursts for one key collapse
 * into one run, a key never runs twice at once, a key added while it runs runs exactly once more
 * afterwards (no lost update), concurrency is bounded, and delayed adds keep the earliest due time.
 * A key added now may carry the object its list or watch event delivered (see observed.ts); a
 * bounded number of waiting keys keep theirs, so memory does not grow with a fleet-wide burst.
 */

import { formatKey, type ObjectKey } from '../kube/object-key'
import type { HeldObject } from '../kube/read-once'
import type { KubeObject } from '../kube/resource'
import type { Timers } from '../timers'
import { type Hint, heldCount, heldHint, mergeHints, type RelatedHint } from './observed'
import { mergeWakes, type OwnChangeWake } from './wake'

/**
 * Processes one key, with the object and related objects its hints delivered when there were
 * some, and its wake when only changes of its own object woke it (see wake.ts); `requeueAfterMs`
 * schedules it again (never a hot loop: 0 means now).
 */
export type QueueHandler = (
  key: ObjectKey,
  observed?: KubeObject,
  related?: readonly HeldObject[],
  wake?: OwnChangeWake,
) => Promise<{ requeueAfterMs?: number } | undefined>

/** Options of createCoalescingQueue. */
export interface QueueOptions {
  handler: QueueHandler
  timers: Timers
  /** Keys processed at once (default 4). */
  concurrency?: number
  /** Delay before retrying a key whose handler threw (default 5000 ms). */
  errorRetryMs?: number
  onError?: (key: ObjectKey, error: unknown) => void
  /** Called with ready + delayed key count whenever it changes (for the queue-depth gauge). */
  onDepth?: (depth: number) => void
  /**
   * Objects the waiting keys may hold, their own and related ones (default 10,000: a watch's
   * first list of a 10,000-Machine fleet, about 35 MB of Machines); a key whose hint would pass
   * it waits holding nothing and is read fresh, so memory stops growing with the fleet there.
   */
  maxObserved?: number
}

/** The queue's surface. */
export interface CoalescingQueue {
  /**
   * Schedules `key` now or after `delayMs`; coalesces with what is already scheduled. `observed`
   * and `related` (only kept for a key due now) are the object and the related objects its list
   * or watch event delivered; `wake` says the add is a change of the key's own object (the key
   * keeps it only while every add since its last run was one).
   */
  add(
    key: ObjectKey,
    delayMs?: number,
    observed?: KubeObject,
    related?: readonly RelatedHint[],
    wake?: OwnChangeWake,
  ): void
  /** Ready plus delayed keys (running keys not counted). */
  depth(): number
  /**
   * Resolves once fewer than `count` keys are ready (or the queue stopped): a producer that
   * awaits it before each add (the sweep) keeps what the queue holds for it to about `count`.
   */
  readyBelow(count: number): Promise<void>
  /** Keys running now. */
  running(): number
  /** Resolves once nothing is ready or running (delayed keys may remain). */
  idle(): Promise<void>
  /** Stops starting work, cancels delayed keys and waits for running ones. */
  stop(): Promise<void>
}

interface Waiting extends Hint {
  key: ObjectKey
  wake?: OwnChangeWake | undefined
}

interface Delayed {
  key: ObjectKey
  dueAt: number
  cancel: () => void
}

/** Creates an empty queue; work starts as keys are added. */
export function createCoalescingQueue(options: QueueOptions): CoalescingQueue {
  const concurrency = Math.max(1, options.concurrency ?? 4)
  const { timers } = options
  const maxObserved = options.maxObserved ?? 10_000
  const ready = new Map<string, Waiting>()
  const delayed = new Map<string, Delayed>()
  const active = new Set<string>()
  // Adds that arrived while their key ran, with the smallest requested delay.
  const rerun = new Map<string, Waiting & { delayMs: number }>()
  let waiters: Array<() => void> = []
  let producers: Array<{ below: number; resolve: () => void }> = []
  let stopped = false
  // Objects the waiting entries (ready or rerun) hold, against maxObserved.
  let holding = 0

  /** `next` merged into what `current` holds, within the bound on held objects. */
  function keep(current: Hint, next: Hint): Hint {
    const merged = mergeHints(current, next)
    const before = heldCount(current)
    const after = heldCount(merged)
    if (after > before && holding - before + after > maxObserved) {
      // No room for more: the key waits holding nothing and its run reads fresh.
      holding -= before
      return { observed: undefined, related: undefined }
    }
    holding += after - before
    return merged
  }

  function release(entry: Waiting | undefined): void {
    if (entry) holding -= heldCount(entry)
  }

  function settleProducers(): void {
    if (producers.length === 0) return
    const waiting: typeof producers = []
    for (const producer of producers) {
      if (stopped || ready.size < producer.below) producer.resolve()
      else waiting.push(producer)
    }
    producers = waiting
  }

  function reportDepth(): void {
    options.onDepth?.(ready.size + delayed.size)
  }

  function settleWaiters(): void {
    if (ready.size > 0 || active.size > 0) return
    const done = waiters
    waiters = []
    for (const resolve of done) resolve()
  }

  function add(
    key: ObjectKey,
    delayMs = 0,
    observed?: KubeObject,
    related?: readonly RelatedHint[],
    wake?: OwnChangeWake,
  ): void {
    if (stopped) return
    const id = formatKey(key)
    const now: Hint = delayMs <= 0 ? heldHint({ observed, related }) : {}
    if (active.has(id)) {
      const previous = rerun.get(id)
      rerun.set(id, {
        key,
        delayMs: Math.min(previous?.delayMs ?? Number.POSITIVE_INFINITY, Math.max(0, delayMs)),
        ...keep(previous ?? {}, now),
        // A later timer says nothing about what woke the key now.
        wake: !previous ? wake : delayMs > 0 ? previous.wake : mergeWakes(previous.wake, wake),
      })
      return
    }
    const waiting = ready.get(id)
    if (waiting) {
      Object.assign(waiting, keep(waiting, now))
      if (delayMs <= 0) waiting.wake = mergeWakes(waiting.wake, wake)
      return
    }
    const existing = delayed.get(id)
    if (delayMs <= 0) {
      existing?.cancel()
      delayed.delete(id)
      ready.set(id, { key, ...keep({}, now), wake })
      reportDepth()
      pump()
      return
    }
    const dueAt = timers.now() + delayMs
    if (existing && existing.dueAt <= dueAt) return
    existing?.cancel()
    const cancel = timers.setTimer(delayMs, () => {
      delayed.delete(id)
      add(key, 0)
    })
    delayed.set(id, { key, dueAt, cancel })
    reportDepth()
  }

  function pump(): void {
    while (!stopped && active.size < concurrency && ready.size > 0) {
      const next = ready.entries().next()
      if (next.done) break
      const [id, entry] = next.value
      ready.delete(id)
      release(entry)
      active.add(id)
      reportDepth()
      void run(id, entry)
    }
    settleProducers()
  }

  async function run(id: string, { key, observed, related, wake }: Waiting): Promise<void> {
    let requeueAfterMs: number | undefined
    try {
      requeueAfterMs = (await options.handler(key, observed, related, wake))?.requeueAfterMs
    } catch (error) {
      options.onError?.(key, error)
      requeueAfterMs = options.errorRetryMs ?? 5000
    }
    active.delete(id)
    const again = rerun.get(id)
    rerun.delete(id)
    release(again)
    if (again) add(again.key, again.delayMs, again.observed, again.related, again.wake)
    if (requeueAfterMs !== undefined) add(key, requeueAfterMs)
    pump()
    settleWaiters()
  }

  return {
    add,
    depth: () => ready.size + delayed.size,
    running: () => active.size,
    async readyBelow(count) {
      if (stopped || ready.size < count) return
      await new Promise<void>((resolve) => producers.push({ below: count, resolve }))
    },
    async idle() {
      if (ready.size === 0 && active.size === 0) return
      await new Promise<void>((resolve) => waiters.push(resolve))
    },
    async stop() {
      stopped = true
      for (const entry of delayed.values()) entry.cancel()
      delayed.clear()
      ready.clear()
      rerun.clear()
      holding = 0
      settleProducers()
      reportDepth()
      if (active.size > 0) await new Promise<void>((resolve) => waiters.push(resolve))
    },
  }
}
