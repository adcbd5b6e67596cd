/** @module Applies zod defaults to a raw object without dropping fields zod does not know. */

type Json = unknown

/**
 * Adds to `raw` every key that `parsed` (zod output of `raw`, defaults applied) has and `raw`
 * lacks, recursing into objects and same-length arrays. Nothing is removed or replaced, so the
 * resulting JSON patch only ever adds defaults.
 */
export function mergeDefaults(raw: Json, parsed: Json): Json {
  if (Array.isArray(raw) && Array.isArray(parsed)) {
    if (raw.length !== parsed.length) return raw
    return raw.map((item, index) => mergeDefaults(item, parsed[index]))
  }
  if (!isObject(raw) || !isObject(parsed)) return raw
  const out: Record<string, Json> = { ...raw }
  for (const [key, value] of Object.entries(parsed)) {
    if (value === undefined) continue
    out[key] = Object.hasOwn(raw, key) ? mergeDefaults(raw[key], value) : value
  }
  return out
}

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
