/** @module The zod schema of an int-or-percent value (resolving is in int-or-string.ts). */
import { z } from 'zod'
import { PERCENT_PATTERN } from './int-or-string'

/**
 * A non-negative integer or a percentage string such as "25%".
 * The CRD marks it `x-kubernetes-int-or-string`; the format is enforced by zod in the webhook.
 */
export function intOrPercentSchema(description: string) {
  return z
    .union([
      z.int().min(0).max(1_000_000),
      z
        .string()
        .regex(PERCENT_PATTERN, { message: 'must be an integer or a percentage like "25%"' }),
    ])
    .meta({ 'x-kubernetes-int-or-string': true })
    .describe(`${description} An integer or a percentage such as "25%".`)
}
