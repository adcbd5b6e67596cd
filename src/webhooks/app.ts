/**
 * @module The webhook's Hono app, the one front end of the webhook process. It exists from the
 * start and answers /healthz at once; the review handlers (schemas, conversions, metrics; then
 * the MachineClass lookup) are loaded on the first request that needs them or when `warm()` is
 * called right after listening. /readyz stays 503 (failing check `handlers`) until that load is
 * done: ready means able to answer a review, so the apiserver is never routed to a process that
 * would make it wait on the load. Once loaded, every answer is counted by route in the request
 * metrics.
 */
import { createHttpApp, type HttpApp, notFound } from '../http/app'
import { healthRoutes } from '../observability/health'
import type { Logger } from '../observability/logger'
import type { ReviewPath, WebhookHandlers } from './review-endpoints'
import { serveReview } from './review-route'

/** The app and its load. */
export interface WebhookApp {
  app: HttpApp
  /** Starts loading the handlers now (idempotent); resolves when they serve. */
  warm(): Promise<WebhookHandlers>
}

const REVIEW_PATHS: readonly string[] = ['/validate', '/mutate', '/convert'] satisfies ReviewPath[]
const HEALTH_PATHS = ['/healthz', '/readyz', '/metrics']
/** Every route of the webhook: metric labels, so arbitrary paths cannot create unbounded series. */
const ROUTES = new Set([...REVIEW_PATHS, ...HEALTH_PATHS])

/**
 * The webhook app over `load`. Requests that arrive while it loads wait for it; a failed load is
 * retried by the next request or readiness probe, and answered 500 meanwhile (the app's error
 * handler logs it).
 */
export function createWebhookApp(load: () => Promise<WebhookHandlers>, logger: Logger): WebhookApp {
  let loaded: WebhookHandlers | undefined
  let loading: Promise<WebhookHandlers> | undefined
  const warm = () => {
    loading ??= load().then(
      (handlers) => {
        loaded = handlers
        return handlers
      },
      (error: unknown) => {
        loading = undefined
        throw error
      },
    )
    return loading
  }
  const app = createHttpApp(logger)
  // Every answer is counted by route once loaded (no metrics before; health probes before the
  // load are not worth a series of their own). Each kind of route counts its own, so that a
  // review, the hot path, runs through no middleware: its route is its only handler (about 5% of
  // an admission's CPU otherwise, docs/benchmarks.md "Hono").
  // `started` is undefined for a request that arrived before the load: not counted.
  const observe = (route: string, status: number, started: number | undefined) => {
    if (loaded === undefined || started === undefined) return
    loaded.endpoints.metrics.observeRequest(route, status, loaded.endpoints.now() - started)
  }
  const now = () => loaded?.endpoints.now()
  for (const path of REVIEW_PATHS as ReviewPath[]) {
    app.post(path, async (c) => {
      const { endpoints } = loaded ?? (await warm())
      const started = endpoints.now()
      const response = await serveReview(endpoints, path, c)
      observe(path, response.status, started)
      return response
    })
  }
  for (const path of HEALTH_PATHS) {
    app.use(path, async (c, next) => {
      const started = now()
      await next()
      observe(path, c.res.status, started)
    })
  }
  app.notFound((c) => {
    // A 404 on a health path is counted by its middleware already.
    if (!HEALTH_PATHS.includes(c.req.path)) {
      observe(ROUTES.has(c.req.path) ? c.req.path : 'other', 404, now())
    }
    return notFound(c)
  })
  healthRoutes(app, {
    ready: {
      handlers: () => {
        // A probe also retries a failed load.
        if (loaded === undefined) warm().catch(() => {})
        return loaded !== undefined
      },
    },
    metrics: async () => (loaded ?? (await warm())).registry,
  })
  return { app, warm }
}
