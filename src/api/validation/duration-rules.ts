/** @module Durations the controllers can schedule: at most MAX_DURATION_MS (596h). */
import { MAX_DURATION_MS, MAX_DURATION_TEXT, parseDurationMs } from '../shared/duration'
import type { FieldError } from './field-errors'

/**
 * An error when `value` (a duration the schema already accepted) at `path` is longer than the
 * longest timer the controllers can set; nothing for undefined or unparsable values (the schema
 * reports those).
 */
export function validateDuration(value: string | undefined, path: string): FieldError[] {
  const ms = value === undefined ? undefined : parseDurationMs(value)
  if (ms === undefined || ms <= MAX_DURATION_MS) return []
  return [
    {
      path,
      message: `Invalid value: ${JSON.stringify(value)}: must be at most ${MAX_DURATION_TEXT} (the longest timer the controllers can set)`,
    },
  ]
}
