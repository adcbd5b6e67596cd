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

/**
 * The longest delay a timer holds: Node's setTimeout takes a signed 32-bit count of milliseconds
 * (about 24.8 days) and fires a longer one after 1 ms, with a TimeoutOverflowWarning.
 */
export const maxTimerMs = 2 ** 31 - 1

/**
 * `ms` as a timer can hold it: at most maxTimerMs, at least 0, and 0 for what is not a number. A
 * timer clamped this way fires early, and whoever it wakes recomputes the time left, so a
 * duration of months (an MHC timeout of 720h) waits in steps of 24.8 days, never in a hot loop.
 */
export function clampTimerMs(ms: number): number {
  if (Number.isNaN(ms) || ms <= 0) return 0
  return Math.min(ms, maxTimerMs)
}

/**
 * Timers on the event loop. By default they do not keep the process alive on their own (a server's
 * sockets do); a command whose only pending work is a wait, such as `adopt` polling for Running
 * Machines, passes `keepAlive` or Node exits mid-wait with code 13 (an unsettled top-level await).
 */
export function realTimers(options: { keepAlive?: boolean } = {}): Timers {
  return {
    now: () => performance.now(),
    setTimer(ms, fn) {
      const handle = setTimeout(fn, clampTimerMs(ms))
      if (!options.keepAlive) handle.unref()
      return () => clearTimeout(handle)
    },
  }
}
