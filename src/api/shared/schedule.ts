/**
 * @module Cron schedules of disruption budget windows: 5 fields, UTC, parsed by croner
 * (https://github.com/Hexagon/croner, no dependencies) rather than by hand: ranges, steps, names
 * (mon-fri), the @daily-style macros and day-of-month OR day-of-week as in Vixie cron.
 */
import { Cron } from 'croner'

/** Parses `schedule` as the controllers read it. Throws with croner's message on a bad one. */
export function parseSchedule(schedule: string): Cron {
  return new Cron(schedule, { mode: '5-part', timezone: 'UTC' })
}
