/**
 * @module Faults on the watch events of the in-process bus, injected where watch events become keys
 * (`interceptChanges` of startInProcessBus): pass them through, drop every one, or deliver each
 * several times, each copy after its own seeded delay, so copies and events overtake each other.
 */
import type {
  ChangeDelivery,
  ChangeInterceptor,
  WatchedChange,
} from '../../../src/bus/in-process-bus'
import type { Random } from './random'

/** What a fault did to the events it saw. */
export interface EventFaultStats {
  /** Changes the watches produced. */
  seen: number
  /** Deliveries made (copies included). */
  delivered: number
  dropped: number
  /** Deliveries beyond the first of each change. */
  duplicated: number
  /** Deliveries that arrived after a delivery of a later change (out of order). */
  reordered: number
  /** Distinct Machines (by UID) the watches reported: every Machine that existed meanwhile. */
  machines: number
}

export interface EventFault {
  name: string
  intercept: ChangeInterceptor
  stats(): EventFaultStats
  /** Cancels deliveries still waiting (call before stopping the bus). */
  stop(): void
}

/** Counters plus the Machine UIDs seen, whatever the fault does with the change. */
function tally() {
  const stats = { seen: 0, delivered: 0, dropped: 0, duplicated: 0, reordered: 0 }
  const machines = new Set<string>()
  return {
    stats,
    see(change: WatchedChange): number {
      const uid = change.obj.metadata?.uid
      if (change.type.kind === 'Machine' && uid) machines.add(uid)
      return stats.seen++
    },
    snapshot: (): EventFaultStats => ({ ...stats, machines: machines.size }),
  }
}

/** Every change delivered once, in order (the baseline). */
export function passThrough(): EventFault {
  const { stats, see, snapshot } = tally()
  return {
    name: 'normal',
    intercept: (deliver) => (change) => {
      see(change)
      stats.delivered++
      deliver(change)
    },
    stats: snapshot,
    stop: () => {},
  }
}

/** Every change lost: only the sweep (and requeues) can drive convergence. */
export function dropAll(): EventFault {
  const { stats, see, snapshot } = tally()
  return {
    name: 'drop all',
    intercept: () => (change) => {
      see(change)
      stats.dropped++
    },
    stats: snapshot,
    stop: () => {},
  }
}

/**
 * Every change delivered `copies` times, each copy after a delay drawn from `random` in
 * [0, maxDelayMs]: duplicated, and shuffled against the changes around it.
 */
export function duplicateShuffled(options: {
  random: Random
  copies: number
  maxDelayMs: number
}): EventFault {
  const { stats, see, snapshot } = tally()
  const timers = new Set<NodeJS.Timeout>()
  let stopped = false
  let newestDelivered = -1
  const later = (
    deliver: ChangeDelivery,
    sequence: number,
    change: Parameters<ChangeDelivery>[0],
  ) => {
    const timer = setTimeout(
      () => {
        timers.delete(timer)
        if (stopped) return
        stats.delivered++
        if (sequence < newestDelivered) stats.reordered++
        newestDelivered = Math.max(newestDelivered, sequence)
        deliver(change)
      },
      options.random.int(0, options.maxDelayMs),
    )
    timers.add(timer)
  }
  return {
    name: `duplicate x${options.copies} shuffled`,
    intercept: (deliver) => (change) => {
      const sequence = see(change)
      stats.duplicated += options.copies - 1
      for (let copy = 0; copy < options.copies; copy++) later(deliver, sequence, change)
    },
    stats: snapshot,
    stop() {
      stopped = true
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
    },
  }
}

/** Each change lost with probability `share` (seeded): the rest are delivered once, in order. */
export function dropShare(options: { random: Random; share: number }): EventFault {
  const { stats, see, snapshot } = tally()
  return {
    name: `drop ${Math.round(options.share * 100)}%`,
    intercept: (deliver) => (change) => {
      see(change)
      if (options.random.chance(options.share)) {
        stats.dropped++
        return
      }
      stats.delivered++
      deliver(change)
    },
    stats: snapshot,
    stop: () => {},
  }
}
