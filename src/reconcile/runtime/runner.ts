/**
 * @module The reconcile runner: runs one key through its kind's controller and turns the result or
 * error into an outcome every transport understands. Logs carry key, kind and a reconcile id;
 * metrics record duration by result, errors by reason and requeues by cause.
 */
import { randomUUID } from 'node:crypto'
import { type Runner, type RunOutcome, requeueDelay } from '../../bus/run-outcome'
import type { OwnChangeWake } from '../../bus/wake'
import { errorMessage, TransientError } from '../../errors'
import { formatKey, type ObjectKey } from '../../kube/object-key'
import type { HeldObject } from '../../kube/read-once'
import type { KubeObject } from '../../kube/resource'
import type { RuntimeMetrics } from '../../observability/runtime-metrics'
import { clampTimerMs } from '../../timers'
import { type BackoffPolicy, createBackoffTracker } from './backoff'
import { classifyError } from './classify'
import type { Controller, ReconcileDeps } from './controller'
import { createSelfWakes, seeingOwnVersions } from './self-wakes'
import { recordStalled } from './stalled'

/** Options of createRunner. */
export interface RunnerOptions<D extends ReconcileDeps> {
  controllers: readonly Controller<D>[]
  deps: D
  metrics?: RuntimeMetrics | undefined
  backoff?: BackoffPolicy | undefined
  /**
   * The most one reconcile may take (default 2 minutes). Past it the run ends as a transient
   * `DeadlineExceeded` retry and the reconcile's signal aborts, so a hung call (a blackholed
   * connection) cannot pin its key.
   */
  deadlineMs?: number | undefined
}

/** Default of RunnerOptions.deadlineMs. */
export const defaultReconcileDeadlineMs = 120_000

/** A runner over the selected `controllers`, sharing `deps` (kube, clock, log...). */
export function createRunner<D extends ReconcileDeps>(options: RunnerOptions<D>): Runner {
  const byKind = new Map(options.controllers.map((c) => [c.kind, c]))
  const backoff = createBackoffTracker(options.backoff)
  const { deps, metrics } = options
  const deadlineMs = options.deadlineMs ?? defaultReconcileDeadlineMs
  const selfWakes = createSelfWakes()

  async function run(
    key: ObjectKey,
    observed?: KubeObject,
    related?: readonly HeldObject[],
    wake?: OwnChangeWake,
  ): Promise<RunOutcome> {
    const controller = byKind.get(key.kind)
    if (!controller) return { type: 'skipped' }
    const ref = { namespace: key.namespace, name: key.name }
    const deferMs = await selfWakes.deferral(key, wake, deps.clock.now().getTime(), async () => {
      const current = await deps.kube.get(controller.resource, ref).catch(() => undefined)
      return current?.metadata?.resourceVersion
    })
    if (deferMs !== undefined) {
      metrics?.requeues.inc({ kind: key.kind, cause: 'own-write' })
      return { type: 'requeue', afterMs: clampTimerMs(deferMs) }
    }
    const reconcileId = randomUUID().slice(0, 8)
    const log = deps.log.child({ key: formatKey(key), kind: key.kind, reconcileId })
    const started = performance.now()
    // The versions of its own object this run reads and writes: its writes' watch events come
    // back as wakes of this key, which must not cut short the timer it returns.
    const seen = new Set<string>()
    const observedVersion = observed?.metadata?.resourceVersion
    if (observedVersion !== undefined) seen.add(observedVersion)
    const kube = seeingOwnVersions(deps.kube, controller.resource, ref, seen)
    const outcome = await attempt(controller, { key, observed, related }, { ...deps, kube, log })
    selfWakes.settled(key, requeueDelay(outcome), deps.clock.now().getTime(), seen)
    const seconds = (performance.now() - started) / 1000
    const result = outcome.type === 'done' ? 'success' : outcome.type
    metrics?.reconcileDuration.observe({ kind: key.kind, result }, seconds)
    if (outcome.type === 'requeue') metrics?.requeues.inc({ kind: key.kind, cause: 'requested' })
    if (outcome.type === 'retry') {
      metrics?.requeues.inc({ kind: key.kind, cause: 'error' })
      metrics?.reconcileErrors.inc({ kind: key.kind, reason: outcome.reason })
    }
    if (outcome.type === 'permanent') {
      metrics?.reconcileErrors.inc({ kind: key.kind, reason: outcome.reason })
    }
    log.debug({ outcome, ms: Math.round(seconds * 1000) }, 'reconciled')
    return outcome
  }

  async function attempt(
    controller: Controller<D>,
    delivered: Delivered,
    runDeps: D,
  ): Promise<RunOutcome> {
    const { key } = delivered
    try {
      const result = await withDeadline((signal) =>
        reconcileOnce(controller, delivered, { ...runDeps, signal }),
      )
      backoff.success(key)
      const after = result.requeueAfterMs
      return after !== undefined && after >= 0
        ? { type: 'requeue', afterMs: clampTimerMs(after) }
        : { type: 'done' }
    } catch (error) {
      const outcome = classifyError(error)
      if (outcome.type === 'permanent') {
        backoff.success(key)
        runDeps.log.warn({ reason: outcome.reason, err: outcome.message }, 'permanent failure')
        await recordStalled(
          { ...runDeps, now: runDeps.clock.now() },
          { resource: controller.resource, key },
          outcome,
        )
        return { type: 'permanent', reason: outcome.reason }
      }
      // Count every transient failure so repeated conflicts also slow down, but honour the
      // error's own delay when it has one (Retry-After, conflict).
      const backoffMs = backoff.failure(key)
      const afterMs = clampTimerMs(outcome.retryAfterMs ?? backoffMs)
      runDeps.log.info({ reason: outcome.reason, err: errorMessage(error), afterMs }, 'will retry')
      return { type: 'retry', afterMs, reason: outcome.reason }
    }
  }

  /** Runs `work`, or rejects with a DeadlineExceeded TransientError once the deadline passes. */
  async function withDeadline<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abandon = new AbortController()
    let timer: NodeJS.Timeout | undefined
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new TransientError(`reconcile did not finish within ${deadlineMs} ms`, {
          reason: 'DeadlineExceeded',
        })
        abandon.abort(error)
        reject(error)
      }, deadlineMs)
    })
    try {
      // race() also handles a late rejection of the abandoned work.
      return await Promise.race([work(abandon.signal), expired])
    } finally {
      clearTimeout(timer)
    }
  }

  return {
    run,
    kinds: () => [...byKind.keys()],
    related: (kind) => byKind.get(kind)?.related ?? [],
  }
}

/** A key with what its list or watch event delivered. */
interface Delivered {
  key: ObjectKey
  observed?: KubeObject | undefined
  related?: readonly HeldObject[] | undefined
}

/**
 * One reconcile; when the objects handed in (its own or related ones) turn out stale (a write
 * based on them got a Conflict), once more at once reading fresh, instead of a backoff round trip
 * through the transport.
 */
async function reconcileOnce<D extends ReconcileDeps>(
  controller: Controller<D>,
  { key, observed, related }: Delivered,
  deps: D,
) {
  if (!observed && !related?.length) return await controller.reconcile(deps, key)
  try {
    return await controller.reconcile(deps, key, observed, related)
  } catch (error) {
    if (classifyError(error).reason !== 'Conflict') throw error
    deps.log.debug({}, 'the delivered object was stale; reading fresh')
    return await controller.reconcile(deps, key)
  }
}
