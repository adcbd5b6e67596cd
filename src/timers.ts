/**
 * @module Timers as a dependency, so queues, watchdogs and probes run on fake time in unit tests
 * and on the event loop in production. Beside Clock (clock.ts): a Clock gives wall time for status
 * and planners, Timers give monotonic time and scheduling to whichever layer waits.
 */

/** Schedules callbacks; `now` is milliseconds on the same scale as the delays. */
export interface Timers {
  now(): number
  /** Runs `fn` after `ms`; the returned function cancels it. */
  setTimer(ms: number, fn: () => void): () => void
}

/** Timers on the event loop. They do not keep the process alive on their own. */
export function realTimers(): Timers {
  return {
    now: () => performance.now(),
    setTimer(ms, fn) {
      const handle = setTimeout(fn, ms)
      handle.unref()
      return () => clearTimeout(handle)
    },
  }
}
