/**
 * @module The webhook's node:http request listener: POSTs to /validate, /mutate and /convert are
 * answered straight from the node request (the hot path the apiserver calls), everything else
 * (health, readiness, metrics, 404s) by health-routes.ts, also on the node objects.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { healthRoutes } from './health-routes'
import { readBody, sendJson } from './http-body'
import {
  createReviewEndpoints,
  isReviewPath,
  type ReviewEndpoints,
  type ReviewPath,
  type WebhookDeps,
} from './review-endpoints'

/** The listener serving the whole webhook from `deps`. */
export function createWebhookListener(deps: WebhookDeps): RequestListener {
  const endpoints = createReviewEndpoints(deps)
  return withReviewRoutes(
    healthRoutes({ deps, observe: endpoints.metrics.observeRequest, now: endpoints.now }),
    (path, request, response) => serveReview(endpoints, path, request, response),
  )
}

/** Sends POSTs to the review paths to `review` and every other request to `rest`. */
export function withReviewRoutes(
  rest: RequestListener,
  review: (path: ReviewPath, request: IncomingMessage, response: ServerResponse) => Promise<void>,
): RequestListener {
  return (request, response) => {
    const url = request.url ?? '/'
    const query = url.indexOf('?')
    // The apiserver calls e.g. /validate?timeout=10s.
    const path = query === -1 ? url : url.slice(0, query)
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
