/**
 * @module Timers as a dependency, so queues and watchdogs run on fake time in unit tests and on
 * the event loop in production.
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
