/** @module RFC 6902 JSON Patch between two JSON documents (mutating admission responses). */

/** One JSON Patch operation. */
export type JsonPatchOperation =
  | { op: 'add' | 'replace'; path: string; value: unknown }
  | { op: 'remove'; path: string }

/** Escapes one key as an RFC 6901 pointer segment. */
export function escapePointer(key: string): string {
  if (!key.includes('~') && !key.includes('/')) return key
  return key.replaceAll('~', '~0').replaceAll('/', '~1')
}

/**
 * The operations that turn `from` into `to`. Objects are diffed key by key; arrays of equal length
 * element by element; anything else is replaced whole.
 */
export function diffJson(from: unknown, to: unknown, path = ''): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = []
  diffInto(ops, from, to, path)
  return ops
}

// One list for the whole walk: /mutate runs this on every admission.
function diffInto(ops: JsonPatchOperation[], from: unknown, to: unknown, path: string): void {
  // Same value (a primitive, or an object the defaulting left alone): nothing to patch.
  if (from === to) return
  if (isObject(from) && isObject(to)) {
    for (const key of Object.keys(from)) {
      if (!Object.hasOwn(to, key)) ops.push({ op: 'remove', path: `${path}/${escapePointer(key)}` })
    }
    for (const key of Object.keys(to)) {
      const value = to[key]
      if (!Object.hasOwn(from, key)) {
        ops.push({ op: 'add', path: `${path}/${escapePointer(key)}`, value })
        continue
      }
      // Most leaves are unchanged: no pointer is built for them.
      const old = from[key]
      if (old !== value) diffInto(ops, old, value, `${path}/${escapePointer(key)}`)
    }
    return
  }
  if (Array.isArray(from) && Array.isArray(to) && from.length === to.length) {
    for (let index = 0; index < from.length; index++) {
      diffInto(ops, from[index], to[index], `${path}/${index}`)
    }
    return
  }
  if (JSON.stringify(from) === JSON.stringify(to)) return
  ops.push({ op: 'replace', path, value: to })
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
