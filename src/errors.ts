/**
 * @module Typed reconcile errors. Boundaries (kube, providers) throw these or values that the
 * runner classifies; the runner alone decides what each one means for retries.
 */

/** A failure that may go away by itself: retried with per-key exponential backoff. */
export class TransientError extends Error {
  override readonly name = 'TransientError'
  /** A machine-readable cause (e.g. `TooManyRequests`), used as a metric label. */
  readonly reason: string
  /** The delay the caller asks for; the runner's backoff applies when absent. */
  readonly retryAfterMs: number | undefined

  constructor(
    message: string,
    options: { reason?: string; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause })
    this.reason = options.reason ?? 'Transient'
    this.retryAfterMs = options.retryAfterMs
  }
}

/**
 * A failure that retrying cannot fix (invalid configuration). The runner records it on the object
 * as a condition and an Event and does not retry it until the object's generation changes.
 */
export class PermanentError extends Error {
  override readonly name = 'PermanentError'
  /** A CamelCase reason a human can act on; it becomes the condition and Event reason. */
  readonly reason: string

  constructor(reason: string, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause })
    this.reason = reason
  }
}

/** The message of anything thrown, for logs and conditions. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}
