/**
 * @module The webhook's routes other than the reviews: /healthz, /readyz, /metrics and 404s, on
 * the node request and response directly. Without a Hono app here, the webhook process loads no
 * HTTP framework, and so never initialises the Web Request/Response globals (undici) that
 * @hono/node-server touches: about 11 ms of CPU before /readyz (docs/benchmarks.md, cold-start).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { sendJson } from './http-body'
import type { WebhookDeps } from './review-endpoints'

/** Every route of the webhook: metric labels, so arbitrary paths cannot create unbounded series. */
const ROUTES = ['/mutate', '/validate', '/convert', '/healthz', '/readyz', '/metrics']

/** What the non-review routes need; `observe` records each answer's latency by route. */
export interface HealthRouteDeps {
  deps: Pick<WebhookDeps, 'isReady' | 'metrics' | 'logger'>
  observe(endpoint: string, status: number, seconds: number): void
  now(): number
}

/** Answers every request that is not a review POST (listener.ts routes the reviews). */
export function healthRoutes({ deps, observe, now }: HealthRouteDeps): RequestListener {
  return (request, response) => {
    const started = now()
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/'
    response.once('finish', () =>
      observe(ROUTES.includes(path) ? path : 'other', response.statusCode, now() - started),
    )
    answer(deps, path, request, response).catch((error: unknown) => {
      deps.logger.error({ err: error, path }, 'webhook request failed')
      if (!response.headersSent) sendJson(response, 500, '{"error":"internal error"}')
      else response.destroy()
    })
  }
}

async function answer(
  deps: HealthRouteDeps['deps'],
  path: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const method = request.method ?? 'GET'
  // HEAD is answered as GET without a body, as HTTP (and Hono before) does.
  const head = method === 'HEAD'
  const reply = (status: number, body: string, contentType = 'application/json') => {
    response.writeHead(status, {
      'Content-Type': contentType,
      'Content-Length': Buffer.byteLength(body),
    })
    response.end(head ? undefined : body)
  }
  if (method === 'GET' || head) {
    if (path === '/healthz') return reply(200, '{"status":"ok"}')
    if (path === '/readyz') {
      const ready = deps.isReady?.() ?? true
      return reply(ready ? 200 : 503, `{"status":"${ready ? 'ok' : 'not ready'}"}`)
    }
    if (path === '/metrics')
      return reply(200, await deps.metrics.metrics(), deps.metrics.contentType)
  }
  reply(404, JSON.stringify({ error: `no route for ${method} ${path}` }))
}
