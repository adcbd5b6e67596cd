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
  type Answer,
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
  const answer = await answerReview(endpoints, path, request, response)
  sendJson(response, answer.status, answer.body)
  endpoints.metrics.observeRequest(path, answer.status, endpoints.now() - started)
}

// The body is read only once its bytes fit in the budget (review-budget.ts); until then it waits
// in the socket. The bytes are given back once the answer is built. A body refused unread is not
// drained either: the connection closes after the answer.
async function answerReview(
  endpoints: ReviewEndpoints,
  path: ReviewPath,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<Answer> {
  const limit = endpoints.bodyLimit(path)
  const announced = Number(request.headers['content-length'])
  const known = Number.isFinite(announced) && announced >= 0
  const refuse = (answer: Answer) => {
    response.shouldKeepAlive = false
    return answer
  }
  if (known && announced > limit) return refuse(endpoints.tooLarge(path))
  const release = await endpoints.admit(known ? announced : limit)
  if (release === undefined) {
    // client-go, which the apiserver calls webhooks with, retries a 429 that names a delay.
    response.setHeader('Retry-After', '1')
    return refuse(endpoints.busy)
  }
  try {
    const body = await readBody(request, limit)
    return body === undefined ? endpoints.tooLarge(path) : await endpoints.serve(path, body)
  } finally {
    release()
  }
}
