/** @module The zod schema of a duration string (parsing is in duration.ts). */
import { z } from 'zod'
import { DURATION_PATTERN } from './duration'

/** A non-negative duration string; `description` becomes the kubectl explain text. */
export function durationSchema(description: string) {
  return z
    .string()
    .max(64)
    .regex(DURATION_PATTERN, { message: 'must be a duration such as "30s", "10m" or "1h30m"' })
    .describe(`${description} A duration such as "30s", "10m" or "1h30m".`)
}
