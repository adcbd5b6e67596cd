/** @module A Logger that keeps every line as JSON, for tests that check what was (not) logged. */
import type { Logger } from '../../src/observability/logger'

/** Appends each log call to `lines` as one JSON string (fields plus `msg`). */
export function capturingLogger(lines: string[]): Logger {
  const write = (obj: object, msg?: string) => {
    lines.push(JSON.stringify({ ...obj, msg }))
  }
  return {
    debug: write,
    info: write,
    warn: write,
    error: write,
    child: () => capturingLogger(lines),
  }
}
