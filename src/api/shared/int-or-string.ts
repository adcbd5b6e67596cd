/**
 * @module Int-or-percent values (maxSurge, maxUnavailable, maxUnhealthy), as in apps/v1. The schema
 * is in int-or-string-schema.ts, so what only resolves values does not import zod.
 */

// At most 100%: more than all Machines is never what a user meant.
export const PERCENT_PATTERN = /^(100|[1-9]?[0-9])%$/

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
