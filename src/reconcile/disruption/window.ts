/**
 * @module Whether a budget's scheduled window is open at a given time, and when that changes.
 * Pure: the time is an argument. A window opens each time the 5-field cron schedule fires (UTC) and
 * stays open for its duration, as Karpenter's budgets do: open at `now` when the schedule fired in
 * (now - duration, now]. Windows that overlap or touch form one longer window.
 */
import { parseSchedule } from '../../api/shared/schedule'

/** The state of a window at one time. */
export interface WindowState {
  open: boolean
  /** When an open window closes; undefined when it never does (fires more often than it lasts). */
  closesAt?: Date
  /** When a closed window next opens; undefined when the schedule never fires again. */
  opensAt?: Date
}

/** Windows chained over more than this many durations are treated as never closing. */
const maxChained = 100

/** The window of `schedule` lasting `durationMs` at `now`. Throws on a bad schedule. */
export function windowAt(schedule: string, durationMs: number, now: Date): WindowState {
  const cron = parseSchedule(schedule)
  // nextRun is exclusive of its argument, so a firing exactly `duration` ago has closed.
  const fired = cron.nextRun(new Date(now.getTime() - durationMs))
  if (!fired || fired.getTime() > now.getTime()) {
    const opensAt = cron.nextRun(now)
    return opensAt ? { open: false, opensAt } : { open: false }
  }
  let closes = fired.getTime() + durationMs
  for (let i = 0; i < maxChained; i++) {
    // The latest firing up to the close (previousRuns excludes its reference, hence + 1 s) keeps
    // the window open one more duration; none after the last one found means it closes.
    const [latest] = cron.previousRuns(1, new Date(closes + 1000))
    const extended = latest ? latest.getTime() + durationMs : closes
    if (extended <= closes) return { open: true, closesAt: new Date(closes) }
    closes = extended
  }
  return { open: true }
}
