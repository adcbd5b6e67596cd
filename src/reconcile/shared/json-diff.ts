/**
 * @module A short, human-readable account of how two JSON values differ, for Events and condition
 * messages: `instanceType t3.micro -> m5.xlarge, ami.id ami-1 -> ami-2 and 2 more`. Pure.
 */
import { isDeepStrictEqual } from 'node:util'

const maxValueLength = 60
const maxChanges = 3

function show(value: unknown): string {
  if (value === undefined) return '(unset)'
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > maxValueLength ? `${text.slice(0, maxValueLength - 3)}...` : text
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** The differing leaves of two JSON values, each as `path before -> after`. */
export function differingLeaves(before: unknown, after: unknown, path = ''): string[] {
  if (isDeepStrictEqual(before, after)) return []
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()
    return keys.flatMap((key) =>
      differingLeaves(before[key], after[key], path ? `${path}.${key}` : key),
    )
  }
  return [`${path || '(value)'} ${show(before)} -> ${show(after)}`]
}

/** The first 3 differing leaves, then how many more; '' when the values are equal. */
export function describeDifferences(before: unknown, after: unknown, path = ''): string {
  const all = differingLeaves(before, after, path)
  const more = all.length > maxChanges ? ` and ${all.length - maxChanges} more` : ''
  return `${all.slice(0, maxChanges).join(', ')}${more}`
}
