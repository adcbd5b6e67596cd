/**
 * @module /validate, /mutate and /convert as plain functions from a request body to a status and a
 * JSON text, with their metrics; the webhook's Hono app (app.ts, review-route.ts) serves them.
 */
import type { Registry } from 'prom-client'
import type { ProviderSpecSchemas } from '../api/shared/provider-spec'
import type { MetricsText } from '../observability/health'
import type { Logger } from '../observability/logger'
import { boundsDenial } from './admission/bounds'
import { BadReviewError } from './admission/hub-object'
import { mutate } from './admission/mutate'
import { type MachineClassExists, validate } from './admission/validate'
import { convertReviewJson } from './conversion/convert-review'
import { createWebhookMetrics, type WebhookMetrics } from './metrics'
import { type AdmissionResponse, admissionReview, deny } from './review'
import { createReviewBudgets, type Release } from './review-budget'
import { parseAdmissionReview, parseConversionReview } from './review-parse'

/** Everything the webhook depends on; passed in, never global. */
export interface WebhookDeps {
  logger: Logger
  metrics: Registry
  providerSchemas: ProviderSpecSchemas
  machineClassExists?: MachineClassExists
  /**
   * Body size limits in bytes, and the bytes of reviews held at once (review-budget.ts): large
   * (over 1 MiB) and small reviews have budgets of their own.
   */
  limits?: {
    admissionBytes?: number
    conversionBytes?: number
    largeInFlightBytes?: number
    smallInFlightBytes?: number
  }
  /** Monotonic seconds, for latency metrics (injectable for tests). */
  now?: () => number
}

/** The paths of the review endpoints (POST only). */
export type ReviewPath = '/validate' | '/mutate' | '/convert'

/** An answer: HTTP status and its JSON body as text. */
export interface Answer {
  status: number
  body: string
}

/** The review endpoints and what the HTTP layers around them share. */
export interface ReviewEndpoints {
  /**
   * Answers a whole request body (UTF-8 JSON) sent to `path`. Never throws (nor rejects). A
   * promise only when the answer waits for I/O (a MachineClass lookup); else the answer itself.
   */
  serve(path: ReviewPath, body: string): Answer | Promise<Answer>
  /** The body limit of `path` in bytes. */
  bodyLimit(path: ReviewPath): number
  /** The answer to a body over `bodyLimit(path)`. */
  tooLarge(path: ReviewPath): Answer
  /**
   * Waits until a body of `bytes` (announced; the limit when unknown) may be read: resolves with
   * what gives the bytes back once answered, or undefined when the review is refused (`busy`).
   */
  admit(bytes: number): Promise<Release | undefined>
  /** The answer to a review refused by `admit`: 429, which the apiserver retries. */
  busy: Answer
  metrics: WebhookMetrics
  /** Monotonic seconds. */
  now(): number
}

// An AdmissionReview carries the object and, on update, the old one: twice the apiserver's 3 MiB
// request body limit, plus the envelope.
const DEFAULT_ADMISSION_BYTES = 8 * 1024 * 1024
// The apiserver sends one object per conversion call as it fills its watch cache from etcd
// (docs/benchmarks.md, list-conversion), a few KiB each, at most 1.5 MiB (etcd's default request
// limit). Parsed, a review takes about four times its size in V8's heap, and in the webhook's
// 256 MiB V8 keeps about 128 MiB of old space: 8 MiB leaves room for two at once.
const DEFAULT_CONVERSION_BYTES = 8 * 1024 * 1024

/** The request is not a review we can handle: HTTP 400 with the message. */
class BadRequest extends Error {}

/** An `{ "error": message }` answer. */
export function errorAnswer(status: number, message: string): Answer {
  return { status, body: JSON.stringify({ error: message }) }
}

function readJson(text: string): unknown {
  try {
    // A UTF-8 byte order mark is not JSON; TextDecoder (what Request.text() uses) drops it too.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  } catch {
    throw new BadRequest('body is not valid JSON')
  }
}

/** Creates the endpoints; registers the webhook metrics on `deps.metrics` (once per registry). */
export function createReviewEndpoints(deps: WebhookDeps): ReviewEndpoints {
  const metrics = createWebhookMetrics(deps.metrics)
  const now = deps.now ?? (() => performance.now() / 1000)
  const limits = {
    admission: deps.limits?.admissionBytes ?? DEFAULT_ADMISSION_BYTES,
    conversion: deps.limits?.conversionBytes ?? DEFAULT_CONVERSION_BYTES,
  }
  const bodyLimit = (path: ReviewPath) =>
    path === '/convert' ? limits.conversion : limits.admission

  // Synchronous unless the handler waits for I/O: a promise and a microtask less per request.
  const admission = (path: '/validate' | '/mutate', text: string): Answer | Promise<Answer> => {
    const parsed = parseAdmissionReview(readJson(text))
    if (!parsed.ok) throw new BadRequest(parsed.error)
    const request = parsed.request
    const failed = (error: unknown) => {
      if (error instanceof BadReviewError) throw new BadRequest(error.message)
      // Never crash the apiserver's request: log and deny in a well-formed review.
      deps.logger.error(
        { err: error, uid: request.uid, endpoint: path },
        'admission handler failed',
      )
      return deny(request.uid, 'internal error in the machine-api webhook', 500)
    }
    const answer = (response: AdmissionResponse): Answer => {
      metrics.countAdmission(path, request.kind.kind, response.allowed)
      return { status: 200, body: JSON.stringify(admissionReview(response)) }
    }
    let response: AdmissionResponse | Promise<AdmissionResponse>
    try {
      response =
        boundsDenial(request) ?? (path === '/mutate' ? mutate(request) : validate(request, deps))
    } catch (error) {
      return answer(failed(error))
    }
    return response instanceof Promise
      ? response.then(answer, (error: unknown) => answer(failed(error)))
      : answer(response)
  }

  const conversion = (text: string): Answer => {
    const parsed = parseConversionReview(readJson(text))
    if (!parsed.ok) throw new BadRequest(parsed.error)
    return { status: 200, body: convertReviewJson(parsed.request) }
  }

  const failed = (path: ReviewPath, error: unknown): Answer => {
    if (error instanceof BadRequest) return errorAnswer(400, error.message)
    deps.logger.error({ err: error, path }, 'webhook request failed')
    return errorAnswer(500, 'internal error')
  }

  return {
    serve(path, text) {
      try {
        const answer = path === '/convert' ? conversion(text) : admission(path, text)
        return answer instanceof Promise ? answer.catch((error) => failed(path, error)) : answer
      } catch (error) {
        return failed(path, error)
      }
    },
    bodyLimit,
    tooLarge: (path) => errorAnswer(413, `body exceeds ${bodyLimit(path)} bytes`),
    admit: createReviewBudgets({
      ...(deps.limits?.largeInFlightBytes === undefined
        ? {}
        : { largeBytes: deps.limits.largeInFlightBytes }),
      ...(deps.limits?.smallInFlightBytes === undefined
        ? {}
        : { smallBytes: deps.limits.smallInFlightBytes }),
    }),
    busy: errorAnswer(429, 'the webhook is busy with other reviews; retry'),
    metrics,
    now,
  }
}

/** What the webhook app (app.ts) loads on first use: the review endpoints and their registry. */
export interface WebhookHandlers {
  endpoints: ReviewEndpoints
  registry: MetricsText
}

/** The endpoints of `deps` and the registry they count in (`deps.metrics`). */
export function createWebhookHandlers(deps: WebhookDeps): WebhookHandlers {
  return { endpoints: createReviewEndpoints(deps), registry: deps.metrics }
}
