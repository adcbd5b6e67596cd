/**
 * @module createWebhookApp: /mutate, /validate, /convert, /healthz, /readyz and /metrics as a Hono
 * app, for in-memory requests (tests). The webhook process serves the same endpoints through
 * listener.ts, on node:http alone, so that it loads no HTTP framework.
 */
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import {
  type Answer,
  createReviewEndpoints,
  type ReviewEndpoints,
  type ReviewPath,
  type WebhookDeps,
} from './review-endpoints'

export type { WebhookDeps } from './review-endpoints'

const ROUTES = ['/mutate', '/validate', '/convert', '/healthz', '/readyz', '/metrics']

/**
 * Creates the webhook app. The review endpoints are shared with the node listener (listener.ts),
 * which serves them without Hono; pass them in when both are built from the same deps (the metrics
 * are registered once per registry). The HTTPS server around it lives in server.ts.
 */
export function createWebhookApp(
  deps: WebhookDeps,
  endpoints: ReviewEndpoints = createReviewEndpoints(deps),
): Hono {
  const app = new Hono()
  const { metrics, now } = endpoints
  app.use('*', async (c, next) => {
    const started = now()
    await next()
    // Label by route, not raw path: arbitrary paths must not create unbounded metric series.
    const endpoint = ROUTES.includes(c.req.path) ? c.req.path : 'other'
    metrics.observeRequest(endpoint, c.res.status, now() - started)
  })

  for (const path of ['/mutate', '/validate', '/convert'] as const satisfies ReviewPath[]) {
    app.post(
      path,
      bodyLimit({
        maxSize: endpoints.bodyLimit(path),
        onError: (c) => reply(c, endpoints.tooLarge(path)),
      }),
      async (c) => reply(c, await endpoints.serve(path, await c.req.text())),
    )
  }

  app.get('/healthz', (c) => c.json({ status: 'ok' }))
  app.get('/readyz', (c) => {
    const ready = deps.isReady?.() ?? true
    return c.json({ status: ready ? 'ok' : 'not ready' }, ready ? 200 : 503)
  })
  app.get('/metrics', async (c) => {
    c.header('Content-Type', deps.metrics.contentType)
    return c.body(await deps.metrics.metrics())
  })

  app.notFound((c) => c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404))
  app.onError((error, c) => {
    const status = (error as { status?: number }).status
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return c.json({ error: error.message }, status as ContentfulStatusCode)
    }
    deps.logger.error({ err: error, path: c.req.path }, 'webhook request failed')
    return c.json({ error: 'internal error' }, 500)
  })
  return app
}

function reply(c: Context, answer: Answer) {
  return c.body(answer.body, answer.status as ContentfulStatusCode, {
    'Content-Type': 'application/json',
  })
}
