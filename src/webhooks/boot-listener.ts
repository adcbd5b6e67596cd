/**
 * @module The listener the webhook process starts with: it answers /healthz at once and hands
 * every other request to the full listener, which it loads (handlers, schemas, metrics; then the
 * MachineClass lookup) on the first such request or when `warm()` is called right after
 * listening. /readyz stays 503 until that load is done: ready means able to answer a review, so
 * the apiserver is never routed to a process that would make it wait on the load.
 */
import type { RequestListener } from 'node:http'
import { requestPath, sendJson } from '../http-server'
import { healthListener } from '../observability/health'

/** A listener that loads the real one on first use. */
export interface BootListener {
  listener: RequestListener
  /** Starts loading the full listener now (idempotent); resolves when it serves. */
  warm(): Promise<RequestListener>
}

/**
 * Serves health (200) and readiness (503) until `load` resolves; from then on everything goes to
 * the loaded listener. Requests that arrive while it loads wait for it. A failed load is retried
 * by the next request and answered 500 meanwhile.
 */
export function bootListener(load: () => Promise<RequestListener>): BootListener {
  let loaded: RequestListener | undefined
  // The shared responder, answering as of the request's arrival: the handlers are not loaded (the
  // loaded listener answers health from then on).
  const healthBeforeLoad = healthListener({ ready: { handlers: () => false } })
  let loading: Promise<RequestListener> | undefined
  const warm = () => {
    loading ??= load().then(
      (listener) => {
        loaded = listener
        return listener
      },
      (error: unknown) => {
        loading = undefined
        throw error
      },
    )
    return loading
  }
  const listener: RequestListener = (request, response) => {
    if (loaded !== undefined) return loaded(request, response)
    const path = requestPath(request)
    const probe = request.method === 'GET' || request.method === 'HEAD'
    if (probe && path === '/healthz') return healthBeforeLoad(request, response)
    if (probe && path === '/readyz') {
      // A probe also retries a failed load.
      warm().catch(() => {})
      return healthBeforeLoad(request, response)
    }
    warm().then(
      (full) => full(request, response),
      () => sendJson(response, 500, '{"error":"internal error"}'),
    )
  }
  return { listener, warm }
}
