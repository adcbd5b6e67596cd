/**
 * @module Typed provider errors. Providers classify failures at their boundary (e.g. from AWS error
 * names); the Machine reconcile maps these kinds to phases, conditions and requeue delays in one
 * place. Messages are shown to users in conditions and Events: never put secrets in them.
 */

/** The outcome classes a Machine reconcile distinguishes. */
export type ProviderErrorKind =
  | 'InvalidConfiguration'
  | 'Transient'
  | 'Capacity'
  | 'Throttled'
  | 'NotFound'

/** Default suggested delays (ms) per retryable kind; the caller still adds its own backoff. */
export const defaultRetryAfterMs = {
  Transient: 15_000,
  Capacity: 120_000,
  Throttled: 20_000,
} as const

interface ProviderErrorOptions {
  /** A CamelCase reason for conditions and Events, e.g. `InvalidAMI`. */
  reason: string
  cause?: unknown
}

/** Base class of every error a provider throws on purpose. */
export abstract class ProviderError extends Error {
  abstract readonly kind: ProviderErrorKind
  /** Permanent errors are not retried until the Machine's spec (or its class) changes. */
  abstract readonly permanent: boolean
  readonly reason: string

  constructor(message: string, options: ProviderErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.reason = options.reason
  }
}

/**
 * The user must change something (the field named by `field`, a Secret, a permission): retrying
 * the same spec cannot succeed. The Machine becomes Failed with `reason` and this message.
 */
export class InvalidConfigurationError extends ProviderError {
  override readonly name = 'InvalidConfigurationError'
  readonly kind = 'InvalidConfiguration'
  readonly permanent = true
  /** The provider spec field at fault, as a dotted path (`ami.id`), when known. */
  readonly field: string | undefined

  constructor(message: string, options: ProviderErrorOptions & { field?: string }) {
    super(message, options)
    this.field = options.field
  }
}

/** Options of the retryable errors: the suggested delay before the next attempt. */
export interface RetryableOptions extends ProviderErrorOptions {
  retryAfterMs?: number
}

/** Something that may work on a later attempt (network, 5xx, eventual consistency). */
export class TransientError extends ProviderError {
  override readonly name: string = 'TransientError'
  readonly kind: ProviderErrorKind = 'Transient'
  readonly permanent = false
  readonly retryAfterMs: number

  constructor(message: string, options: RetryableOptions) {
    super(message, options)
    this.retryAfterMs = options.retryAfterMs ?? defaultRetryAfterMs.Transient
  }
}

/** The cloud has no capacity (or quota) for the request right now; retry much later, not hot. */
export class CapacityError extends TransientError {
  override readonly name = 'CapacityError'
  override readonly kind = 'Capacity'

  constructor(message: string, options: RetryableOptions) {
    super(message, {
      ...options,
      retryAfterMs: options.retryAfterMs ?? defaultRetryAfterMs.Capacity,
    })
  }
}

/** The cloud API throttled us; slow down. */
export class ThrottledError extends TransientError {
  override readonly name = 'ThrottledError'
  override readonly kind = 'Throttled'

  constructor(message: string, options: RetryableOptions) {
    super(message, {
      ...options,
      retryAfterMs: options.retryAfterMs ?? defaultRetryAfterMs.Throttled,
    })
  }
}

/** The referenced infrastructure does not exist (for `update` on a vanished instance). */
export class NotFoundError extends ProviderError {
  override readonly name = 'NotFoundError'
  readonly kind = 'NotFound'
  readonly permanent = false
}

/** Narrows an unknown thrown value to a ProviderError. */
export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError
}

/**
 * Wraps anything a provider did not classify as a TransientError, so unknown failures are retried
 * with backoff rather than failing a Machine for good.
 */
export function toProviderError(error: unknown): ProviderError {
  if (isProviderError(error)) return error
  const message = error instanceof Error ? error.message : String(error)
  return new TransientError(message, { reason: 'ProviderError', cause: error })
}
