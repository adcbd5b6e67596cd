/**
 * @module An abort signal with a deadline, optionally tied to a parent signal: what
 * `AbortSignal.any([parent, AbortSignal.timeout(ms)])` says, without its flaw. The composite holds
 * its sources weakly, so a timeout signal nothing else references can be garbage collected before
 * it fires, and the call it bounds then waits for nothing (nodejs/node#57736; seen here as a
 * TerminateInstances that hung a reconcile to its 120 s deadline under load). Here the timer is
 * an ordinary one, held until it fires or `clear()` ends it.
 */

/** A signal and the way to release its timer and its listener on the parent. */
export interface DeadlineSignal {
  signal: AbortSignal
  /** Ends the timer and stops following the parent; call when the bounded work is over. */
  clear(): void
}

/** Aborted with a TimeoutError after `ms`, or with the parent's reason when `parent` aborts. */
export function deadlineSignal(ms: number, parent?: AbortSignal): DeadlineSignal {
  const controller = new AbortController()
  const timer = setTimeout(() => {
    controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError'))
  }, ms)
  // Like AbortSignal.timeout, the timer alone does not keep a process alive.
  timer.unref()
  const follow = () => controller.abort(parent?.reason)
  if (parent?.aborted) follow()
  else parent?.addEventListener('abort', follow, { once: true })
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer)
      parent?.removeEventListener('abort', follow)
    },
  }
}
