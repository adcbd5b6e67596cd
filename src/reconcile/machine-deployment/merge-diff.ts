/**
 * @module A JSON merge patch (RFC 7386) that turns `current` into `desired`: changed and new keys
 * are set, keys only in `current` become null. Merge patches merge objects key by key, so
 * replacing a template (rollback) needs the nulls to drop what the newer template added.
 */
import { isDeepStrictEqual } from 'node:util'

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The patch, or undefined when `current` already equals `desired`. */
export function mergePatchFor(current: unknown, desired: unknown): unknown {
  if (isDeepStrictEqual(current, desired)) return undefined
  if (!isPlainObject(current) || !isPlainObject(desired)) return desired ?? null
  const patch: Record<string, unknown> = {}
  for (const key of new Set([...Object.keys(current), ...Object.keys(desired)])) {
    if (desired[key] === undefined) {
      if (current[key] !== undefined) patch[key] = null
      continue
    }
    const sub = mergePatchFor(current[key], desired[key])
    if (sub !== undefined) patch[key] = sub
  }
  return patch
}
