/** @module RFC 7386 JSON merge patch, applied in place (plan simulation, unchanged-status checks). */

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Applies `patch` to `target` in place (null deletes a key) and returns `target`. */
export function applyMergePatch<T extends object>(target: T, patch: Json): T {
  const out = target as unknown as Json
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key]
    else if (isObject(value)) {
      if (!isObject(out[key])) out[key] = {}
      applyMergePatch(out[key] as Json, value)
    } else out[key] = structuredClone(value)
  }
  return target
}

/** The dotted paths a patch touches, two levels deep (`spec.replicas`, `metadata.annotations`). */
export function patchFields(patch: Json): string[] {
  return Object.entries(patch).flatMap(([key, value]) =>
    isObject(value) ? Object.keys(value).map((inner) => `${key}.${inner}`) : [key],
  )
}
