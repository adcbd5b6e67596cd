/**
 * @module The listener the webhook process starts with: it answers /healthz at once and hands
 * every other request to the full listener, which it loads (handlers, schemas, metrics; then the
 * MachineClass lookup) on the first such request or when `warm()` is called right after
 * listening. /readyz stays 503 until that load is done: ready means able to answer a review, so
 * the apiserver is never routed to a process that would make it wait on the load.
 */
import type { RequestListener } from 'node:http'
import { sendJson } from './http-body'

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
    if (request.method === 'GET' && request.url === '/healthz')
      return sendJson(response, 200, '{"status":"ok"}')
    if (request.method === 'GET' && request.url === '/readyz') {
      // The loaded listener answers readiness from then on; a probe also retries a failed load.
      warm().catch(() => {})
      return sendJson(response, 503, '{"status":"not ready"}')
    }
    warm().then(
      (full) => full(request, response),
      () => sendJson(response, 500, '{"error":"internal error"}'),
    )
  }
  return { listener, warm }
}
