/**
 * @module The actuator boundary: every provider call the Machine controller makes goes through
 * `typedActuator`, so whatever a provider throws reaches the controller and the runner as one of
 * the `src/errors` types, on the create path and the delete path alike.
 */
import { PermanentError, TransientError } from '../errors'
import type { Actuator } from './actuator'

/** A provider failure as the controller handles it. */
export type ProviderFailure = TransientError | PermanentError

/**
 * Maps anything a provider threw to a typed error. Typed errors pass through; an aborted call
 * (the provider call timeout) and anything unclassified become transient errors without a delay
 * of their own, so they are retried with backoff rather than failing a Machine for good.
 */
export function toProviderFailure(error: unknown): ProviderFailure {
  if (error instanceof TransientError || error instanceof PermanentError) return error
  const message = error instanceof Error ? error.message : String(error)
  const name = error instanceof Error ? error.name : ''
  const reason =
    name === 'AbortError' || name === 'TimeoutError' ? 'ProviderTimeout' : 'ProviderError'
  return new TransientError(message, { reason, cause: error })
}

/**
 * Whether the caller records `error` itself: a permanent failure, or a transient one with the
 * provider's own delay. Anything else is left to the runner, whose per-key backoff applies.
 */
export function hasOwnOutcome(error: unknown): error is ProviderFailure {
  return (
    error instanceof PermanentError ||
    (error instanceof TransientError && error.retryAfterMs !== undefined)
  )
}

async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw toProviderFailure(error)
  }
}

/** `actuator` with every method's failures mapped by `toProviderFailure`. */
export function typedActuator(actuator: Actuator): Actuator {
  return {
    exists: (ctx, machine) => guarded(() => actuator.exists(ctx, machine)),
    create: (ctx, machine) => guarded(() => actuator.create(ctx, machine)),
    update: (ctx, machine) => guarded(() => actuator.update(ctx, machine)),
    delete: (ctx, machine) => guarded(() => actuator.delete(ctx, machine)),
  }
}
