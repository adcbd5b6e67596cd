/**
 * @module The one error hierarchy (Kopf style). Boundaries (kube, providers) throw these; the
 * runner alone decides what each one means for retries. A transient error carries its retry
 * delay; a permanent error says what the user must fix. Messages reach conditions and Events:
 * never put secrets in them.
 */

/** Options of a transient error. */
export interface TransientOptions {
  /** A machine-readable cause (e.g. `Throttled`), used as a condition reason and metric label. */
  reason?: string
  /** The delay the caller asks for; the runner's backoff applies when absent. */
  retryAfterMs?: number | undefined
  cause?: unknown
}

/** A failure that may go away by itself: retried after its delay, or with per-key backoff. */
export class TransientError extends Error {
  override readonly name: string = 'TransientError'
  readonly reason: string
  readonly retryAfterMs: number | undefined

  constructor(message: string, options: TransientOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.reason = options.reason ?? 'Transient'
    this.retryAfterMs = options.retryAfterMs
  }
}

/**
 * A failure that retrying cannot fix (invalid configuration). It becomes a condition and an Event
 * and is not retried until what it names (the object's spec, a Secret, a class) changes.
 */
export class PermanentError extends Error {
  override readonly name: string = 'PermanentError'
  /** A CamelCase reason a human can act on; it becomes the condition and Event reason. */
  readonly reason: string
  /** The spec field at fault, as a dotted path (`ami.id`), when known. */
  readonly field: string | undefined

  constructor(
    reason: string,
    message: string,
    options: { field?: string | undefined; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.reason = reason
    this.field = options.field
  }
}

/** The message of anything thrown, for logs and conditions. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}

/**
 * Whether `error` ended a call because the call's own abort signal fired (its timeout, or a caller
 * that gave up) rather than being an answer from the other side.
 */
export function isAbortError(error: unknown): boolean {
  const name = error instanceof Error ? error.name : ''
  return name === 'AbortError' || name === 'TimeoutError'
}
