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

/** The longest expireAfter: ten years, beyond any fleet's refresh policy. */
const MAX_EXPIRE_AFTER_MS = 87_600 * 3_600_000

/**
 * Errors for `expireAfter` at `path`: 0 would replace every Machine as soon as it exists (unset
 * means never), and more than 87600h is not a lifetime. It may exceed the 596h timer limit: the
 * runtime clamps the timer and the next pass looks again.
 */
export function validateExpireAfter(value: string | undefined, path: string): FieldError[] {
  const ms = value === undefined ? undefined : parseDurationMs(value)
  if (ms === undefined) return []
  if (ms <= 0) {
    return [
      {
        path,
        message: `Invalid value: ${JSON.stringify(value)}: must be more than 0 (leave it unset for never)`,
      },
    ]
  }
  if (ms > MAX_EXPIRE_AFTER_MS) {
    return [{ path, message: `Invalid value: ${JSON.stringify(value)}: must be at most 87600h` }]
  }
  return []
}
