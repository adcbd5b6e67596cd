/** @module RFC 6902 JSON Patch between two JSON documents (mutating admission responses). */

/** One JSON Patch operation. */
export type JsonPatchOperation =
  | { op: 'add' | 'replace'; path: string; value: unknown }
  | { op: 'remove'; path: string }

/** Escapes one key as an RFC 6901 pointer segment. */
export function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1')
}

/**
 * The operations that turn `from` into `to`. Objects are diffed key by key; arrays of equal length
 * element by element; anything else is replaced whole.
 */
export function diffJson(from: unknown, to: unknown, path = ''): JsonPatchOperation[] {
  if (isObject(from) && isObject(to)) {
    const ops: JsonPatchOperation[] = []
    for (const key of Object.keys(from)) {
      if (!Object.hasOwn(to, key)) ops.push({ op: 'remove', path: `${path}/${escapePointer(key)}` })
    }
    for (const [key, value] of Object.entries(to)) {
      const child = `${path}/${escapePointer(key)}`
      if (!Object.hasOwn(from, key)) ops.push({ op: 'add', path: child, value })
      else ops.push(...diffJson(from[key], value, child))
    }
    return ops
  }
  if (Array.isArray(from) && Array.isArray(to) && from.length === to.length) {
    return from.flatMap((item, index) => diffJson(item, to[index], `${path}/${index}`))
  }
  if (JSON.stringify(from) === JSON.stringify(to)) return []
  return [{ op: 'replace', path: path === '' ? '' : path, value: to }]
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
