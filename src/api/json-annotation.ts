/** @module Annotations that hold a JSON record (the instance notice, the status-check failure). Pure. */

/** The JSON value of annotation `key`, or undefined when absent, empty or not JSON. */
export function parseJsonAnnotation(
  annotations: Record<string, string> | undefined,
  key: string,
): unknown {
  const raw = annotations?.[key]
  if (!raw) return undefined
  try {
    return JSON.parse(raw) as unknown
  } catch {
    return undefined
  }
}
