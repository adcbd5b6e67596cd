/**
 * @module A readiness check that the apiserver answers. A worker whose apiserver is unreachable
 * cannot reconcile anything, so it reports not ready (its liveness stays up: restarting it would
 * not bring the apiserver back, and a crash-looping worker resumes later than a waiting one).
 */

import { KubeApiError } from '../kube/errors'
import type { Timers } from '../timers'

/** Options of apiserverCheck. */
export interface ApiserverCheckOptions {
  /** One cheap request (e.g. a list with limit 1); resolves when the apiserver answered. */
  probe: () => Promise<unknown>
  timers: Timers
  /** A probe slower than this counts as unreachable (default 3000 ms). */
  timeoutMs?: number
  /** Reuse a result this long, so frequent /readyz calls cost one request (default 1000 ms). */
  cacheMs?: number
}

/**
 * Returns a readiness check: true when the latest probe answered within the timeout. Concurrent
 * calls share one probe in flight. A client error answer counts (a 403 still proves the apiserver
 * is up); no answer (refused, reset, timeout) or a 5xx (e.g. etcd unreachable) makes it false.
 */
export function apiserverCheck(options: ApiserverCheckOptions): () => Promise<boolean> {
  const timeoutMs = options.timeoutMs ?? 3000
  const cacheMs = options.cacheMs ?? 1000
  let last: { at: number; ok: boolean } | undefined
  let inFlight: Promise<boolean> | undefined

  async function probeOnce(): Promise<boolean> {
    let cancel = () => {}
    const timedOut = new Promise<boolean>((resolve) => {
      cancel = options.timers.setTimer(timeoutMs, () => resolve(false))
    })
    const answered = options.probe().then(
      () => true,
      (error: unknown) => error instanceof KubeApiError && error.code < 500,
    )
    try {
      return await Promise.race([answered, timedOut])
    } finally {
      cancel()
    }
  }

  return async () => {
    const now = options.timers.now()
    if (last && now - last.at < cacheMs) return last.ok
    inFlight ??= probeOnce().then((ok) => {
      last = { at: options.timers.now(), ok }
      inFlight = undefined
      return ok
    })
    return await inFlight
  }
}
