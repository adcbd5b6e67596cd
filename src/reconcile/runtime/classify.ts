/**
 * @module The one place that maps a thrown value to an outcome. Boundaries only classify into
 * types (TransientError, PermanentError, KubeApiError); what each means for retries is decided here.
 */
import { PermanentError, TransientError } from '../../errors'
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
