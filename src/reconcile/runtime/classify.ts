/**
 * @module The one place that maps a thrown value to an outcome. Boundaries only classify into
 * types (TransientError, PermanentError, KubeApiError); what each means for retries is decided here:
 * `classifyError` for a failed reconcile (the runner), `classifyProviderError` for a failed provider
 * call (create, update, delete and exists alike), which the Machine kind records on the Machine.
 */
import { errorMessage, isAbortError, PermanentError, TransientError } from '../../errors'
import { asKubeApiError } from '../../kube/errors'

/** What to do about a failed reconcile. */
export type ErrorOutcome =
  /** Retry after `retryAfterMs`, or after the key's backoff when undefined. */
  | { type: 'retry'; reason: string; retryAfterMs: number | undefined }
  /** Record on the object and stop retrying until its spec changes. */
  | { type: 'permanent'; reason: string; message: string }

/** A stale write lost an optimistic-concurrency race: re-read soon, not after a long backoff. */
export const conflictRetryMs = 200

/**
 * Classifies `error`. Conflicts and AlreadyExists retry soon (someone else changed the object or
 * created the child first; the next read sees it). Invalid is permanent: the apiserver rejected
 * what our configuration produced. Anything unknown is transient and backs off.
 */
export function classifyError(error: unknown): ErrorOutcome {
  if (error instanceof PermanentError) {
    return { type: 'permanent', reason: error.reason, message: error.message }
  }
  if (error instanceof TransientError) {
    return { type: 'retry', reason: error.reason, retryAfterMs: error.retryAfterMs }
  }
  const kube = asKubeApiError(error)
  if (kube) {
    switch (kube.reason) {
      case 'Conflict':
      case 'AlreadyExists':
        return { type: 'retry', reason: kube.reason, retryAfterMs: conflictRetryMs }
      case 'Invalid':
        return { type: 'permanent', reason: 'Invalid', message: kube.message }
      case 'TooManyRequests':
        return { type: 'retry', reason: kube.reason, retryAfterMs: kube.retryAfterMs }
      default:
        return { type: 'retry', reason: kube.reason, retryAfterMs: undefined }
    }
  }
  return { type: 'retry', reason: 'Unknown', retryAfterMs: undefined }
}

/** A failed provider call as data: a condition and Event reason, a message, and when to retry. */
export interface ProviderFailure {
  reason: string
  message: string
  /** Retrying the same configuration cannot succeed: wait for the user to change something. */
  permanent: boolean
  /** The provider's own delay; undefined: the runner's per-key backoff applies. */
  retryAfterMs?: number | undefined
}

/**
 * Classifies what a provider call threw. Typed errors keep their reason and delay; an apiserver
 * refusal of what the provider wrote (422 Invalid: a kwok Node with an invalid label or quantity,
 * a hostname label from a name too long) is permanent, `InvalidProviderOutput`, saying what to
 * change: the same spec and name can only be refused again. An aborted call (the per-call timeout
 * or the reconcile's deadline) is `ProviderTimeout`, anything a provider did not classify
 * `ProviderError`, both without a delay of their own, so they are retried with backoff rather than
 * failing a Machine for good.
 */
export function classifyProviderError(error: unknown): ProviderFailure {
  const message = errorMessage(error)
  if (error instanceof PermanentError) return { reason: error.reason, message, permanent: true }
  if (error instanceof TransientError) {
    return { reason: error.reason, message, permanent: false, retryAfterMs: error.retryAfterMs }
  }
  if (asKubeApiError(error)?.reason === 'Invalid') {
    return {
      reason: 'InvalidProviderOutput',
      message: `The apiserver refused what this Machine's provider spec and name produced; change them: ${message}`,
      permanent: true,
    }
  }
  const reason = isAbortError(error) ? 'ProviderTimeout' : 'ProviderError'
  return { reason, message, permanent: false }
}
