/** @module Timers driven by the test: time moves only when `advance` is called. */
import type { Timers } from '../../../src/timers'

/** Manual timers plus `advance(ms)`, which fires due callbacks in time order. */
export interface ManualTimers extends Timers {
  advance(ms: number): void
  pending(): number
}

/** Fresh manual timers at time 0. */
export function manualTimers(): ManualTimers {
  let now = 0
  let seq = 0
  const timers = new Map<number, { at: number; fn: () => void }>()
  return {
    now: () => now,
    setTimer(ms, fn) {
      const id = seq++
      timers.set(id, { at: now + ms, fn })
      return () => timers.delete(id)
    },
    advance(ms) {
      const until = now + ms
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= until)
          .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0]
        if (!due) break
        timers.delete(due[0])
        now = due[1].at
        due[1].fn()
      }
      now = until
    },
    pending: () => timers.size,
  }
}
