/**
 * @module The CloudEvents-over-HTTP transport (Knative ApiServerSource and PingSource sinks).
 * Answers 2xx only when every reconcile succeeded or was deliberately deferred (requeue,
 * permanent failure recorded on the object), and 5xx otherwise, so the broker's retry and
 * dead-letter settings apply. A malformed event gets 400: retrying cannot fix it.
 */
import { Hono } from 'hono'
import type { Registry } from 'prom-client'
import { errorMessage } from '../errors'
import type { KubeClient } from '../kube/kube-client'
import { formatKey, type ObjectKey } from '../kube/object-key'
import type { HeldObject } from '../kube/read-once'
import type { KubeObject, ResourceType } from '../kube/resource'
import { addHealthRoutes } from '../observability/health'
import type { Logger } from '../observability/logger'
import type { ReadinessChecks } from '../observability/readiness'
import type { RuntimeMetrics } from '../observability/runtime-metrics'
import { createPool } from '../pool'
import { BadEventError, type Hint, hintsFromHttp } from './cloudevents'
import type { EventMapper } from './event-mapping'
import { keysForChange } from './hint-keys'
import type { Runner, RunOutcome } from './run-outcome'
import { sweep } from './sweep'

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
}

interface Failure {
  key: string
  reason: string
  afterMs: number
}

/** A Hono app: `POST /` for CloudEvents, plus /healthz, /readyz and /metrics. */
export function createReconcileApp(deps: ReconcileAppDeps): Hono {
  const app = new Hono()
  addHealthRoutes(app, { registry: deps.registry, ready: deps.ready ?? {} })

  async function runKey(
    key: ObjectKey,
    failures: Failure[],
    observed?: KubeObject,
    related?: readonly HeldObject[],
  ): Promise<RunOutcome> {
    const outcome = await deps.runner.run(key, observed, related)
    if (outcome.type === 'retry') {
      failures.push({ key: formatKey(key), reason: outcome.reason, afterMs: outcome.afterMs })
    }
    return outcome
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
      return
    }
    // Each key runs as soon as its mapper finds it (a Machine's own key waits for no listing).
    const runs: Promise<RunOutcome>[] = []
    const mapping = keysForChange(
      hint,
      { kube: deps.kube, mappers: deps.mappers, types: deps.watched },
      (keys) => runs.push(...keys.map((key) => runKey(key, failures))),
    )
    await mapping.finally(() => Promise.all(runs))
  }

  app.post('/', async (c) => {
    deps.metrics?.hints.inc({ transport: 'cloudevents' })
    let hints: Hint[]
    try {
      hints = hintsFromHttp(Object.fromEntries(c.req.raw.headers), await c.req.text())
    } catch (error) {
      deps.log.warn({ err: errorMessage(error) }, 'rejected an event')
      return c.json({ error: errorMessage(error) }, 400)
    }
    const failures: Failure[] = []
    try {
      for (const hint of hints) await handle(hint, failures)
    } catch (error) {
      if (error instanceof BadEventError) return c.json({ error: error.message }, 400)
      deps.log.error({ err: errorMessage(error) }, 'event handling failed')
      return c.json({ error: errorMessage(error) }, 500)
    }
    if (failures.length > 0) {
      const retryAfter = Math.max(1, Math.ceil(Math.min(...failures.map((f) => f.afterMs)) / 1000))
      return c.json({ failures }, 503, { 'Retry-After': String(retryAfter) })
    }
    return c.body(null, 204)
  })

  app.onError((error, c) => {
    deps.log.error({ err: errorMessage(error) }, 'unhandled error')
    return c.json({ error: 'internal error' }, 500)
  })
  return app
}
