/**
 * @module `/healthz`, `/readyz` and `/metrics` as Hono routes, mounted on a function's own app (the
 * worker serves them without Hono: health-server.ts).
 */
import { serve } from '@hono/node-server'
import type { Hono } from 'hono'
import type { Registry } from 'prom-client'
import { failingChecks, type ReadinessChecks } from './readiness'

/**
 * Adds the health routes to `app`. `/healthz` answers while the process runs; `/readyz` runs the
 * checks (503 naming the failing ones); `/metrics` is the Prometheus text format.
 */
export function addHealthRoutes(
  app: Hono,
  options: { registry: Registry; ready: ReadinessChecks },
): Hono {
  app.get('/healthz', (c) => c.text('ok'))
  app.get('/readyz', async (c) => {
    const failing = await failingChecks(options.ready)
    return failing.length === 0 ? c.text('ok') : c.text(`not ready: ${failing.join(', ')}`, 503)
  })
  app.get('/metrics', async (c) =>
    c.body(await options.registry.metrics(), 200, { 'Content-Type': options.registry.contentType }),
  )
  return app
}

/** Serves `app` on `port` (0 = any free port); resolves with the bound port and a close function. */
export async function serveApp(
  app: Hono,
  port: number,
  hostname = '0.0.0.0',
): Promise<{ port: number; close: () => Promise<void> }> {
  return await new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
      resolve({
        port: info.port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      })
    })
  })
}
