/** @module Int-or-percent values (maxSurge, maxUnavailable, maxUnhealthy), as in apps/v1. */
import { z } from 'zod'

// At most 100%: more than all Machines is never what a user meant.
const PERCENT_PATTERN = /^(100|[1-9]?[0-9])%$/

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

/** An int-or-percent value. */
export type IntOrPercent = number | string

/**
 * Resolves an int-or-percent against a total. Percentages round up when `roundUp` (maxSurge)
 * and down otherwise (maxUnavailable, maxUnhealthy), like apps/v1 Deployments.
 */
export function resolveIntOrPercent(value: IntOrPercent, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value
  const percent = Number(value.slice(0, -1))
  const exact = (percent * total) / 100
  return roundUp ? Math.ceil(exact) : Math.floor(exact)
}
