/**
 * @module The one health responder: `/healthz`, `/readyz` and `/metrics` as a node:http listener,
 * with one body format for every server of the project (the webhook, the worker's health port, the
 * reconcile function). Bodies are JSON: `{"status":"ok"}`; `{"status":"not ready","failing":[...]}`
 * naming the failing readiness checks (503); `{"error":"no route for GET /x"}` (404). HEAD is
 * answered as GET without a body.
 */
import type { RequestListener, ServerResponse } from 'node:http'
import { requestPath } from '../http-server'
import type { Logger } from './logger'
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
  /** Served on `/metrics`; without it `/metrics` is a 404 (a process still loading its metrics). */
  metrics?: MetricsText | undefined
  /** Where a failure to answer (e.g. a metric collector throwing) is logged. */
  logger?: Pick<Logger, 'error'> | undefined
}

interface Reply {
  status: number
  contentType: string
  body: string
}

const JSON_TYPE = 'application/json'
const json = (status: number, value: unknown): Reply => ({
  status,
  contentType: JSON_TYPE,
  body: JSON.stringify(value),
})

async function reply(sources: HealthSources, method: string, path: string): Promise<Reply> {
  if (method === 'GET' || method === 'HEAD') {
    if (path === '/healthz') return json(200, { status: 'ok' })
    if (path === '/readyz') {
      const failing = await failingChecks(sources.ready)
      return failing.length === 0
        ? json(200, { status: 'ok' })
        : json(503, { status: 'not ready', failing })
    }
    if (path === '/metrics' && sources.metrics) {
      const { metrics } = sources
      return { status: 200, contentType: metrics.contentType, body: await metrics.metrics() }
    }
  }
  return json(404, { error: `no route for ${method} ${path}` })
}

function send(response: ServerResponse, head: boolean, answer: Reply): void {
  response.writeHead(answer.status, {
    'Content-Type': answer.contentType,
    'Content-Length': Buffer.byteLength(answer.body),
  })
  response.end(head ? undefined : answer.body)
}

/**
 * Answers the health routes and, for any other request, a 404; servers put their own routes in
 * front of it. A failure to answer is logged and answered 500.
 */
export function healthListener(sources: HealthSources): RequestListener {
  return (request, response) => {
    const method = request.method ?? 'GET'
    const path = requestPath(request)
    reply(sources, method, path).then(
      (answer) => send(response, method === 'HEAD', answer),
      (error: unknown) => {
        sources.logger?.error({ err: error, path }, 'health request failed')
        send(response, method === 'HEAD', json(500, { error: 'internal error' }))
      },
    )
  }
}
