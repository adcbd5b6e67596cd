/**
 * @module The CloudEvents-over-HTTP transport (Knative ApiServerSource and PingSource sinks), as
 * the reconcile function's Hono app: `POST /` takes events, beside the shared health routes. Answers 2xx only when every reconcile succeeded or was deliberately deferred (requeue,
 * permanent failure recorded on the object), and 5xx otherwise, so the broker's retry and
 * dead-letter settings apply. A malformed event gets 400: retrying cannot fix it.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { Registry } from 'prom-client'
import { errorMessage } from '../errors'
import { createHttpApp, type HttpApp, type HttpContext } from '../http/app'
import { readBody } from '../http/read-body'
import type { KubeClient } from '../kube/kube-client'
import { formatKey, type ObjectKey } from '../kube/object-key'
import type { HeldObject } from '../kube/read-once'
import type { KubeObject, ResourceType } from '../kube/resource'
import { healthRoutes } from '../observability/health'
import type { Logger } from '../observability/logger'
import type { ReadinessChecks } from '../observability/readiness'
import type { RuntimeMetrics } from '../observability/runtime-metrics'
import { createPool } from '../pool'
import { BadEventError, type Hint, hintsFromHttp } from './cloudevents'
import type { EventMapper } from './event-mapping'
import { keysForChange } from './hint-keys'
import type { Runner, RunOutcome } from './run-outcome'
import { sweep } from './sweep'
import { type OwnChangeWake, ownChangeWake } from './wake'

/** What the HTTP transport needs. */
export interface ReconcileAppDeps {
  kube: KubeClient
  runner: Runner
  mappers: readonly EventMapper[]
  /** The reconciled kinds (swept on a ping). */
  reconciled: readonly ResourceType[]
  /** Every kind events may name (to re-read Reference-mode hints). */
  watched: readonly ResourceType[]
  log: Logger
  registry: Registry
  metrics?: RuntimeMetrics | undefined
  ready?: ReadinessChecks
  /** Limits the sweep to one namespace (namespaced installs); all namespaces when undefined. */
  namespace?: string | undefined
  /** Reconciles at once during a sweep tick (default 8). */
  sweepConcurrency?: number
  /**
   * Runs after a sweep tick's keys (the status-check pass, which asks the cloud about many
   * Machines at once). Must not throw: what it could not do waits for the next tick.
   */
  afterSweep?: (() => Promise<void>) | undefined
  /** The largest event body accepted, in bytes (default 16 MiB: a Resource event carries an object). */
  bodyBytes?: number
}

const DEFAULT_BODY_BYTES = 16 * 1024 * 1024

interface Failure {
  key: string
  reason: string
  afterMs: number
}

/** The app: `POST /` for CloudEvents, plus /healthz, /readyz and /metrics. */
export function createReconcileApp(deps: ReconcileAppDeps): HttpApp {
  const app = createHttpApp(deps.log)
  healthRoutes(app, { ready: deps.ready ?? {}, metrics: deps.registry })

  async function runKey(
    key: ObjectKey,
    failures: Failure[],
    observed?: KubeObject,
    related?: readonly HeldObject[],
    wake?: OwnChangeWake,
  ): Promise<RunOutcome> {
    const outcome = await deps.runner.run(key, observed, related, wake)
    if (outcome.type === 'retry') {
      failures.push({ key: formatKey(key), reason: outcome.reason, afterMs: outcome.afterMs })
    }
    return outcome
  }

  function readsKind(key: ObjectKey, kind: string): boolean {
    return deps.runner.related(key.kind).some((related) => related.type.kind === kind)
  }

  async function handle(hint: Hint, failures: Failure[]): Promise<void> {
    if (hint.type === 'ignored') return
    if (hint.type === 'sweep') {
      const pool = createPool(deps.sweepConcurrency ?? 8)
      const report = await sweep({
        kube: deps.kube,
        types: deps.reconciled,
        log: deps.log,
        namespace: deps.namespace,
        enqueue: (key, listed, related) =>
          pool.submit(async () => void (await runKey(key, failures, listed, related))),
        related: (type) => deps.runner.related(type.kind),
      })
      await pool.drain()
      for (const kind of report.failedKinds) {
        failures.push({ key: kind, reason: 'ListFailed', afterMs: 0 })
      }
      await deps.afterSweep?.()
      return
    }
    // Each key runs as soon as its mapper finds it (a Machine's own key waits for no listing).
    const runs: Promise<RunOutcome>[] = []
    const type = deps.watched.find((t) => t.kind === hint.kind)
    // The changed object, for a key of another kind whose controller reads it (a MachineSet its
    // template's MachineClass), as the in-process bus hands it over.
    const relatedFor = (key: ObjectKey, object: KubeObject | undefined) =>
      object && type && !hint.deleted && key.kind !== hint.kind && readsKind(key, hint.kind)
        ? [{ type, obj: object }]
        : undefined
    const mapping = keysForChange(
      hint,
      { kube: deps.kube, mappers: deps.mappers, types: deps.watched },
      (keys, object) =>
        runs.push(
          ...keys.map((key) =>
            runKey(key, failures, undefined, relatedFor(key, object), wakeOf(key, hint)),
          ),
        ),
    )
    await mapping.finally(() => Promise.all(runs))
  }

  async function answerEvents(headers: IncomingHttpHeaders, body: string): Promise<Answer> {
    deps.metrics?.hints.inc({ transport: 'cloudevents' })
    let hints: Hint[]
    try {
      hints = hintsFromHttp(headerRecord(headers), body)
    } catch (error) {
      deps.log.warn({ err: errorMessage(error) }, 'rejected an event')
      return { status: 400, body: { error: errorMessage(error) } }
    }
    const failures: Failure[] = []
    try {
      for (const hint of hints) await handle(hint, failures)
    } catch (error) {
      if (error instanceof BadEventError) return { status: 400, body: { error: error.message } }
      deps.log.error({ err: errorMessage(error) }, 'event handling failed')
      return { status: 500, body: { error: errorMessage(error) } }
    }
    if (failures.length > 0) {
      const retryAfter = Math.max(1, Math.ceil(Math.min(...failures.map((f) => f.afterMs)) / 1000))
      return { status: 503, body: { failures }, retryAfter }
    }
    return { status: 204 }
  }

  // The body is read from the node request under the limit, as it streams in (http/read-body.ts).
  app.post('/', async (c) => {
    const limit = deps.bodyBytes ?? DEFAULT_BODY_BYTES
    const { incoming } = c.env
    const body = await readBody(incoming, limit)
    const answer =
      body === undefined
        ? { status: 413, body: { error: `body exceeds ${limit} bytes` } }
        : await answerEvents(incoming.headers, body)
    return send(c, answer)
  })
  return app
}

interface Answer {
  status: number
  body?: unknown
  /** Seconds, for the Retry-After header. */
  retryAfter?: number
}

function send(c: HttpContext, answer: Answer): Response {
  const headers: Record<string, string> =
    answer.retryAfter === undefined ? {} : { 'Retry-After': String(answer.retryAfter) }
  if (answer.body === undefined) return c.body(null, answer.status as 204, headers)
  return c.json(answer.body, answer.status as 200, headers)
}

// CloudEvents reads single-valued headers; node gives repeated ones as arrays (joined as HTTP does).
function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  const record: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) record[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return record
}

/**
 * The wake of `key` by a change hint: its own object's change, at the version a Resource-mode
 * event carries (a Reference-mode one carries none: the runner reads it when it must know).
 */
function wakeOf(
  key: ObjectKey,
  hint: Extract<Hint, { type: 'change' }>,
): OwnChangeWake | undefined {
  const wake = ownChangeWake(key, { kind: hint.kind, obj: hint.object, deleted: hint.deleted })
  return wake && !hint.full ? { ...wake, resourceVersion: undefined } : wake
}
