/**
 * @module Bounds on the shape of any JSON a webhook is handed, checked without recursion (so a
 * hostile object nested thousands of levels deep cannot overflow the stack): nesting depth, and
 * keys that mean something to JavaScript objects (`__proto__`, `constructor`, `prototype`).
 */
import { type FieldError, joinPath } from './field-errors'

/**
 * The deepest nesting admission accepts in an object (objects and arrays, the object itself
 * being level 1). The deepest path of the API's own schemas is about 10 levels and managedFields
 * mirror a path 4 levels further down; provider data is the only free-form part.
 */
export const MAX_OBJECT_DEPTH = 64

/**
 * The largest free-form provider data admission accepts (a provider spec, a Machine's
 * providerStatus), as JSON text. Provider specs of the built-in providers take a few hundred bytes
 * (EC2 allows 50 tags of at most 384 bytes); every v1alpha1 LIST and conversion carries it.
 */
export const MAX_PROVIDER_DATA_CHARS = 64 * 1024

/** Keys refused in provider data: they reach Object.prototype or a constructor when merged. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
])

interface Frame {
  value: unknown
  depth: number
  parent: Frame | undefined
  key: string | number | undefined
}

function pathOf(frame: Frame, prefix: string): string {
  const segments: Array<string | number> = []
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) {
    segments.push(at.key)
  }
  segments.reverse()
  // A path thousands of segments long helps nobody: its start says where, the depth says how deep.
  const shown = segments.length > 12 ? [...segments.slice(0, 12), '...'] : segments
  return joinPath(prefix, shown) || '<root>'
}

/** Calls `visit` on every object and array inside `root` (iteratively); stops when it returns an error. */
function walk(
  root: unknown,
  visit: (frame: Frame) => FieldError | undefined,
): FieldError | undefined {
  const stack: Frame[] = [{ value: root, depth: 1, parent: undefined, key: undefined }]
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { value } = frame
    if (typeof value !== 'object' || value === null) continue
    const found = visit(frame)
    if (found !== undefined) return found
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        stack.push({ value: value[index], depth: frame.depth + 1, parent: frame, key: index })
      }
    } else {
      for (const key of Object.keys(value)) {
        const child = (value as Record<string, unknown>)[key]
        stack.push({ value: child, depth: frame.depth + 1, parent: frame, key })
      }
    }
  }
  return undefined
}

/**
 * An error naming the first place where `value` (reported under `prefix`) nests objects or arrays
 * deeper than `maxDepth` levels, or undefined.
 */
export function depthError(
  value: unknown,
  prefix: string,
  maxDepth = MAX_OBJECT_DEPTH,
): FieldError | undefined {
  return walk(value, (frame) =>
    frame.depth > maxDepth
      ? {
          path: pathOf(frame, prefix),
          message: `Invalid value: nested deeper than ${maxDepth} levels`,
        }
      : undefined,
  )
}

/** An error for the first `__proto__`, `constructor` or `prototype` key inside `value`, or undefined. */
export function forbiddenKeyError(value: unknown, prefix: string): FieldError | undefined {
  return walk(value, (frame) => {
    if (Array.isArray(frame.value)) return undefined
    const key = Object.keys(frame.value as object).find((k) => FORBIDDEN_KEYS.has(k))
    if (key === undefined) return undefined
    return {
      path: pathOf(frame, prefix),
      message: `Forbidden: the key ${JSON.stringify(key)} is not allowed`,
    }
  })
}

/**
 * An error when `value` at `path` nests deeper than the bound or serializes to more than
 * MAX_PROVIDER_DATA_CHARS characters, or undefined.
 */
export function providerDataSizeError(value: unknown, path: string): FieldError | undefined {
  const tooDeep = depthError(value, path)
  if (tooDeep !== undefined) return tooDeep
  // Characters, not bytes: provider data is almost all ASCII, and the bound is about magnitude.
  const size = (JSON.stringify(value) ?? '').length
  if (size <= MAX_PROVIDER_DATA_CHARS) return undefined
  return {
    path,
    message: `Too long: must be at most ${MAX_PROVIDER_DATA_CHARS} characters of JSON, not ${size}`,
  }
}
