/**
 * @module The provider kinds of the error hierarchy in `src/errors.ts`: providers classify
 * failures at their boundary (e.g. from AWS error names) into these, and the runner and the
 * Machine controller treat them as the transient or permanent errors they extend.
 */
import { PermanentError, TransientError } from '../errors'

/** Suggested delays (ms) of the retryable provider kinds. */
export const defaultRetryAfterMs = {
  /** A provider failure that names no delay (network, 5xx, eventual consistency). */
  Transient: 15_000,
  Capacity: 120_000,
  Throttled: 20_000,
} as const

/** Options of the provider kinds: a CamelCase reason for conditions and Events, e.g. `InvalidAMI`. */
interface ProviderErrorOptions {
  reason: string
  retryAfterMs?: number
  cause?: unknown
}

/** `options` with `ms` as the delay when they name none. */
function withDefaultDelay(options: ProviderErrorOptions, ms: number): ProviderErrorOptions {
  return { ...options, retryAfterMs: options.retryAfterMs ?? ms }
}

/**
 * The user must change something (the field named by `field`, a Secret, a permission): retrying
 * the same configuration cannot succeed.
 */
export class InvalidConfigurationError extends PermanentError {
  override readonly name = 'InvalidConfigurationError'

  constructor(message: string, options: ProviderErrorOptions & { field?: string }) {
    super(options.reason, message, options)
  }
}

/** The cloud has no capacity (or quota) for the request right now; retry much later, not hot. */
export class CapacityError extends TransientError {
  override readonly name = 'CapacityError'

  constructor(message: string, options: ProviderErrorOptions) {
    super(message, withDefaultDelay(options, defaultRetryAfterMs.Capacity))
  }
}

/** The cloud API throttled us; slow down. */
export class ThrottledError extends TransientError {
  override readonly name = 'ThrottledError'

  constructor(message: string, options: ProviderErrorOptions) {
    super(message, withDefaultDelay(options, defaultRetryAfterMs.Throttled))
  }
}

/** The referenced infrastructure does not exist (for `update` on a vanished instance). */
export class NotFoundError extends TransientError {
  override readonly name = 'NotFoundError'

  constructor(message: string, options: ProviderErrorOptions) {
    super(message, options)
  }
}
