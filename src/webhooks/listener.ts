/**
 * @module The webhook's node:http request listener, the one front end of the webhook: POSTs to
 * /validate, /mutate and /convert are answered straight from the node request (the hot path the
 * apiserver calls), everything else (health, readiness, metrics, 404s) by the shared health
 * responder (observability/health.ts). Every answer is counted by route in the request metrics.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { readBody, requestPath, sendJson } from '../http-server'
import { healthListener } from '../observability/health'
import {
  createReviewEndpoints,
  isReviewPath,
  type ReviewEndpoints,
  type ReviewPath,
  type WebhookDeps,
} from './review-endpoints'

/** Every route of the webhook: metric labels, so arbitrary paths cannot create unbounded series. */
const ROUTES = ['/mutate', '/validate', '/convert', '/healthz', '/readyz', '/metrics']

/** The listener serving the whole webhook from `deps`; ready as soon as it exists. */
export function createWebhookListener(deps: WebhookDeps): RequestListener {
  const endpoints = createReviewEndpoints(deps)
  const health = healthListener({ ready: {}, metrics: deps.metrics, logger: deps.logger })
  return withReviewRoutes(
    (request, response) => {
      const started = endpoints.now()
      const path = requestPath(request)
      response.once('finish', () =>
        endpoints.metrics.observeRequest(
          ROUTES.includes(path) ? path : 'other',
          response.statusCode,
          endpoints.now() - started,
        ),
      )
      health(request, response)
    },
    (path, request, response) => serveReview(endpoints, path, request, response),
  )
}

/** Sends POSTs to the review paths to `review` and every other request to `rest`. */
export function withReviewRoutes(
  rest: RequestListener,
  review: (path: ReviewPath, request: IncomingMessage, response: ServerResponse) => Promise<void>,
): RequestListener {
  return (request, response) => {
    const path = requestPath(request)
    if (request.method !== 'POST' || !isReviewPath(path)) return rest(request, response)
    review(path, request, response).catch(() => response.destroy())
  }
}

async function serveReview(
  endpoints: ReviewEndpoints,
  path: ReviewPath,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const started = endpoints.now()
  const body = await readBody(request, endpoints.bodyLimit(path))
  let answer = body === undefined ? endpoints.tooLarge(path) : endpoints.serve(path, body)
  if (answer instanceof Promise) answer = await answer
  sendJson(response, answer.status, answer.body)
  endpoints.metrics.observeRequest(path, answer.status, endpoints.now() - started)
}
