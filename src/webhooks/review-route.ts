/**
 * @module Answers one POST to /validate, /mutate or /convert inside the webhook's Hono app: the
 * body budget (review-budget.ts), the body read straight from the node request
 * (http/read-body.ts), the review endpoints' answer as one JSON response.
 */
import type { HttpContext } from '../http/app'
import { readBody } from '../http/read-body'
import type { Answer, ReviewEndpoints, ReviewPath } from './review-endpoints'

/** The answer to `path`'s review in `c`. */
export async function serveReview(
  endpoints: ReviewEndpoints,
  path: ReviewPath,
  c: HttpContext,
): Promise<Response> {
  const answer = await answerReview(endpoints, path, c)
  // A plain header object with one string: @hono/node-server writes it and the text in one go.
  return c.body(answer.body, answer.status as 200, { 'Content-Type': 'application/json' })
}

// The body is read only once its bytes fit in the budget (review-budget.ts); until then it waits
// in the socket. The bytes are given back once the answer is built. A body refused unread is not
// drained either: the connection closes after the answer.
async function answerReview(
  endpoints: ReviewEndpoints,
  path: ReviewPath,
  c: HttpContext,
): Promise<Answer> {
  const { incoming, outgoing } = c.env
  const limit = endpoints.bodyLimit(path)
  const announced = Number(incoming.headers['content-length'])
  const known = Number.isFinite(announced) && announced >= 0
  const refuse = (answer: Answer) => {
    outgoing.shouldKeepAlive = false
    return answer
  }
  if (known && announced > limit) return refuse(endpoints.tooLarge(path))
  const release = await endpoints.admit(known ? announced : limit)
  if (release === undefined) {
    // client-go, which the apiserver calls webhooks with, retries a 429 that names a delay.
    outgoing.setHeader('Retry-After', '1')
    return refuse(endpoints.busy)
  }
  try {
    const body = await readBody(incoming, limit)
    return body === undefined ? endpoints.tooLarge(path) : await endpoints.serve(path, body)
  } finally {
    release()
  }
}
