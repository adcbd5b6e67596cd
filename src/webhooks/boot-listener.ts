/**
 * @module The listener the webhook process starts with: it answers /healthz and /readyz at once
 * and hands every other request to the full listener, which it loads (handlers, schemas, the
 * MachineClass lookup, metrics, Hono) on the first such request or when `warm()` is called right
 * after listening. Nothing of that weight is parsed or run before the server can say it is up.
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
 * Serves health and readiness until `load` resolves; from then on everything goes to the loaded
 * listener. Requests that arrive while it loads wait for it. A failed load is retried by the next
 * request and answered 500 meanwhile.
 */
export function bootListener(
  load: () => Promise<RequestListener>,
  isReady: () => boolean = () => true,
): BootListener {
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
      const ready = isReady()
      return sendJson(
        response,
        ready ? 200 : 503,
        JSON.stringify({ status: ready ? 'ok' : 'not ready' }),
      )
    }
    warm().then(
      (full) => full(request, response),
      () => sendJson(response, 500, '{"error":"internal error"}'),
    )
  }
  return { listener, warm }
}
