/**
 * @module A per-key work queue in the manner of client-go's workqueue: bursts for one key collapse
 * into one run, a key never runs twice at once, a key added while it runs runs exactly once more
 * afterwards (no lost update), concurrency is bounded, and delayed adds keep the earliest due time.
 */
import { formatKey, type ObjectKey } from '../kube/object-key'
import type { Timers } from './timers'

/** Processes one key; `requeueAfterMs` schedules it again (never a hot loop: 0 means now). */
export type QueueHandler = (key: ObjectKey) => Promise<{ requeueAfterMs?: number } | undefined>

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
}

/** The queue's surface. */
export interface CoalescingQueue {
  /** Schedules `key` now or after `delayMs`; coalesces with what is already scheduled. */
  add(key: ObjectKey, delayMs?: number): void
  /** Ready plus delayed keys (running keys not counted). */
  depth(): number
  /** Keys running now. */
  running(): number
  /** Resolves once nothing is ready or running (delayed keys may remain). */
  idle(): Promise<void>
  /** Stops starting work, cancels delayed keys and waits for running ones. */
  stop(): Promise<void>
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
  const ready = new Map<string, ObjectKey>()
  const delayed = new Map<string, Delayed>()
  const active = new Set<string>()
  // Adds that arrived while their key ran, with the smallest requested delay.
  const rerun = new Map<string, { key: ObjectKey; delayMs: number }>()
  let waiters: Array<() => void> = []
  let stopped = false

  function reportDepth(): void {
    options.onDepth?.(ready.size + delayed.size)
  }

  function settleWaiters(): void {
    if (ready.size > 0 || active.size > 0) return
    const done = waiters
    waiters = []
    for (const resolve of done) resolve()
  }

  function add(key: ObjectKey, delayMs = 0): void {
    if (stopped) return
    const id = formatKey(key)
    if (active.has(id)) {
      const previous = rerun.get(id)?.delayMs ?? Number.POSITIVE_INFINITY
      rerun.set(id, { key, delayMs: Math.min(previous, Math.max(0, delayMs)) })
      return
    }
    if (ready.has(id)) return
    const existing = delayed.get(id)
    if (delayMs <= 0) {
      existing?.cancel()
      delayed.delete(id)
      ready.set(id, key)
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
      const [id, key] = next.value
      ready.delete(id)
      active.add(id)
      reportDepth()
      void run(id, key)
    }
  }

  async function run(id: string, key: ObjectKey): Promise<void> {
    let requeueAfterMs: number | undefined
    try {
      requeueAfterMs = (await options.handler(key))?.requeueAfterMs
    } catch (error) {
      options.onError?.(key, error)
      requeueAfterMs = options.errorRetryMs ?? 5000
    }
    active.delete(id)
    const again = rerun.get(id)
    rerun.delete(id)
    if (again) add(again.key, again.delayMs)
    if (requeueAfterMs !== undefined) add(key, requeueAfterMs)
    pump()
    settleWaiters()
  }

  return {
    add,
    depth: () => ready.size + delayed.size,
    running: () => active.size,
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
      reportDepth()
      if (active.size > 0) await new Promise<void>((resolve) => waiters.push(resolve))
    },
  }
}
