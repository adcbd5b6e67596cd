/**
 * @module Durations as Go-style strings ("90s", "10m", "1h30m"), the form kubectl users know. The
 * schema is in duration-schema.ts, so what only parses durations does not import zod.
 */

// Same grammar as Go's time.ParseDuration without the sign: a negative timeout is never meaningful.
// ASCII only ("us", not "µs") so the pattern is identical in JS and in the apiserver's RE2.
export const DURATION_PATTERN = /^(0|([0-9]+(\.[0-9]+)?(ns|us|ms|s|m|h))+)$/

/**
 * The longest duration admission accepts: 596h, just under 2^31-1 ms (about 596.5h), the longest
 * delay Node.js's setTimeout can wait (a longer one fires after 1 ms). Any timer the controllers
 * derive from a field stays schedulable; the runtime clamps its timers as well.
 */
export const MAX_DURATION_MS = 596 * 3_600_000

/** MAX_DURATION_MS as users write it. */
export const MAX_DURATION_TEXT = '596h'

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
}

/**
 * Parses a duration string into milliseconds.
 * Returns undefined when the string is not a valid duration (callers report the field).
 */
export function parseDurationMs(value: string): number | undefined {
  if (!DURATION_PATTERN.test(value)) return undefined
  if (value === '0') return 0
  let total = 0
  for (const match of value.matchAll(/([0-9]+(?:\.[0-9]+)?)(ns|us|ms|s|m|h)/g)) {
    const amount = Number(match[1])
    const unit = UNIT_MS[match[2] ?? '']
    if (unit === undefined) return undefined
    total += amount * unit
  }
  return total
}
