/**
 * @module The one health responder: `/healthz`, `/readyz` and `/metrics` as routes of a server's
 * Hono app, with one body format for every server of the project (the webhook, the worker's health
 * port, the reconcile function). Bodies are JSON: `{"status":"ok"}`; `{"status":"not ready","failing":[...]}`
 * naming the failing readiness checks (503); anything else is the app's 404 (http/app.ts). HEAD
 * is answered as GET without a body (Hono does so for every GET route).
 */
import type { HttpApp } from '../http/app'
import { failingChecks, type ReadinessChecks } from './readiness'

/** What `/metrics` serves; a prom-client Registry is one. */
export interface MetricsText {
  readonly contentType: string
  metrics(): Promise<string>
}

/** What the responder answers from. */
export interface HealthSources {
  /** `/readyz` is 200 when every check passes (none: always). */
  ready: ReadinessChecks
  /**
   * Served on `/metrics`; without it `/metrics` is a 404. A function when the metrics are loaded
   * on first use (the webhook's come with its handlers): `/metrics` then waits for them.
   */
  metrics?: MetricsText | (() => Promise<MetricsText>) | undefined
}

/**
 * Adds the health routes to `app`; the servers' own routes sit beside them. A failure to answer
 * (a metric collector throwing) goes to the app's error handler: logged, and answered 500.
 */
export function healthRoutes(app: HttpApp, sources: HealthSources): HttpApp {
  app.get('/healthz', (c) => c.json({ status: 'ok' }))
  app.get('/readyz', async (c) => {
    const failing = await failingChecks(sources.ready)
    return failing.length === 0
      ? c.json({ status: 'ok' })
      : c.json({ status: 'not ready', failing }, 503)
  })
  const { metrics } = sources
  if (metrics !== undefined) {
    app.get('/metrics', async (c) => {
      const source = typeof metrics === 'function' ? await metrics() : metrics
      const text = await source.metrics()
      return c.body(text, 200, { 'Content-Type': source.contentType })
    })
  }
  return app
}
