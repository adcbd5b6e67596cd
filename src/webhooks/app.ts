/** @module createWebhookApp: the Hono app behind /mutate, /validate, /convert, /healthz, /readyz, /metrics. */
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { Registry } from 'prom-client'
import type { ProviderSpecSchemas } from '../api/shared/provider-spec'
import type { Logger } from '../observability/logger'
import { BadReviewError } from './admission/hub-object'
import { mutate } from './admission/mutate'
import { type MachineClassExists, validate } from './admission/validate'
import { convertReview } from './conversion/convert-review'
import { createWebhookMetrics } from './metrics'
import {
  type AdmissionRequest,
  type AdmissionResponse,
  admissionReview,
  admissionReviewSchema,
  conversionReviewSchema,
  deny,
  describeIssues,
} from './review'

/** Everything the webhook app depends on; passed in, never global. */
export interface WebhookDeps {
  logger: Logger
  metrics: Registry
  providerSchemas: ProviderSpecSchemas
  machineClassExists?: MachineClassExists
  /** False while the server is not ready to serve (e.g. TLS material missing). */
  isReady?: () => boolean
  /** Body size limits in bytes. Conversion batches whole LIST pages, so it gets more room. */
  limits?: { admissionBytes?: number; conversionBytes?: number }
  /** Monotonic seconds, for latency metrics (injectable for tests). */
  now?: () => number
}

const ROUTES = ['/mutate', '/validate', '/convert', '/healthz', '/readyz', '/metrics']
const DEFAULT_ADMISSION_BYTES = 4 * 1024 * 1024
const DEFAULT_CONVERSION_BYTES = 64 * 1024 * 1024

/** Answered with HTTP 400 and a JSON body: the request is not a review we can handle. */
class BadRequest extends Error {}

async function readJson(request: Request): Promise<unknown> {
  const text = await request.text()
  try {
    return JSON.parse(text)
  } catch {
    throw new BadRequest('body is not valid JSON')
  }
}

/** Creates the webhook app. The HTTPS server around it lives in server.ts. */
export function createWebhookApp(deps: WebhookDeps): Hono {
  const app = new Hono()
  const metrics = createWebhookMetrics(deps.metrics)
  const now = deps.now ?? (() => performance.now() / 1000)
  const tooLarge = (limit: number) =>
    bodyLimit({
      maxSize: limit,
      onError: (c) => c.json({ error: `body exceeds ${limit} bytes` }, 400),
    })

  app.use('*', async (c, next) => {
    const started = now()
    await next()
    // Label by route, not raw path: arbitrary paths must not create unbounded metric series.
    const endpoint = ROUTES.includes(c.req.path) ? c.req.path : 'other'
    metrics.observeRequest(endpoint, c.res.status, now() - started)
  })

  const admission = (
    endpoint: string,
    handle: (request: AdmissionRequest) => Promise<AdmissionResponse>,
  ) =>
    app.post(
      endpoint,
      tooLarge(deps.limits?.admissionBytes ?? DEFAULT_ADMISSION_BYTES),
      async (c) => {
        const parsed = admissionReviewSchema.safeParse(await readJson(c.req.raw))
        if (!parsed.success)
          throw new BadRequest(`not an AdmissionReview v1: ${describeIssues(parsed.error)}`)
        const request = parsed.data.request
        let response: AdmissionResponse
        try {
          response = await handle(request)
        } catch (error) {
          if (error instanceof BadReviewError) throw new BadRequest(error.message)
          // Never crash the apiserver's request: log and deny in a well-formed review.
          deps.logger.error({ err: error, uid: request.uid, endpoint }, 'admission handler failed')
          response = deny(request.uid, 'internal error in the machine-api webhook', 500)
        }
        metrics.countAdmission(endpoint, request.kind.kind, response.allowed)
        return c.json(admissionReview(response))
      },
    )

  admission('/mutate', async (request) => mutate(request))
  admission('/validate', (request) => validate(request, deps))

  app.post(
    '/convert',
    tooLarge(deps.limits?.conversionBytes ?? DEFAULT_CONVERSION_BYTES),
    async (c) => {
      const parsed = conversionReviewSchema.safeParse(await readJson(c.req.raw))
      if (!parsed.success)
        throw new BadRequest(`not a ConversionReview v1: ${describeIssues(parsed.error)}`)
      return c.json(convertReview(parsed.data.request))
    },
  )

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
    if (error instanceof BadRequest) return c.json({ error: error.message }, 400)
    const status = (error as { status?: number }).status
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return c.json({ error: error.message }, status as ContentfulStatusCode)
    }
    deps.logger.error({ err: error, path: c.req.path }, 'webhook request failed')
    return c.json({ error: 'internal error' }, 500)
  })
  return app
}
