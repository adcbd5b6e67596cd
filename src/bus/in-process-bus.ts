/**
 * @module The in-process transport (npm run dev, single-replica installs): watch sources feed
 * mapped keys into a coalescing queue whose workers run the runner; a sweep timer re-enqueues every
 * object, a page at a time. A key for the changed (or listed) object itself carries that object,
 * and a Machine its Node from the sweep's list or from the Node change that woke it, so its
 * reconcile need not read them again. Event delivery can be switched off to run on the sweep
 * alone, or wrapped (chaos tests drop, duplicate and reorder changes there, where watch events
 * become keys).
 */
import { errorMessage } from '../errors'
import type { KubeClient } from '../kube/kube-client'
import { formatKey, type ObjectKey } from '../kube/object-key'
import { defaultPageSize } from '../kube/paged-list'
import type { KubeObject, ResourceType } from '../kube/resource'
import type { Logger } from '../observability/logger'
import type { RuntimeMetrics } from '../observability/runtime-metrics'
import type { Timers } from '../timers'
import { type CoalescingQueue, createCoalescingQueue } from './coalescing-queue'
import { type EventMapper, mapChange } from './event-mapping'
import { inFlight } from './in-flight'
import { inNamespaceScope } from './namespace-scope'
import { heldObject } from './observed'
import { type Runner, requeueDelay } from './run-outcome'
import { type SweepReport, startSweepTimer, sweep } from './sweep'
import { isKeyOf, ownChangeWake } from './wake'
import type { ChangeType, WatchSource } from './watch-source'
import { startWatches } from './watches'

/** One watched change on its way to the mappers and the queue. */
export interface WatchedChange {
  type: ResourceType
  obj: KubeObject
  change: ChangeType
  /**
   * Its place in the order the watches produced changes, numbered before any interceptor delays
   * or reorders them: of two versions of one object, the higher is the newer (see RelatedHint).
   */
  order?: number | undefined
}

/** Delivers a watched change to the mappers and the queue. */
export type ChangeDelivery = (change: WatchedChange) => void

/**
 * Wraps delivery: receives the real one and returns what the watches call instead. It may drop,
 * repeat, delay or reorder changes (events are hints: correctness must not depend on them).
 */
export type ChangeInterceptor = (deliver: ChangeDelivery) => ChangeDelivery

/** Options of startInProcessBus. */
export interface InProcessBusOptions {
  kube: KubeClient
  runner: Runner
  /** The kinds the runner reconciles: swept every period. */
  reconciled: readonly ResourceType[]
  /** The kinds whose changes are watched and mapped to keys. */
  watched: readonly ResourceType[]
  mappers: readonly EventMapper[]
  timers: Timers
  log: Logger
  metrics?: RuntimeMetrics | undefined
  concurrency?: number
  /** 0 disables the sweep timer. */
  sweepPeriodMs: number
  /** False runs on the sweep alone (no watches). */
  events?: boolean
  /** Wraps the delivery of every watched change (fault injection in tests); default: none. */
  interceptChanges?: ChangeInterceptor | undefined
  /** Only this namespace: watches, sweeps, and the keys changes map to (Node -> Machine...). */
  namespace?: string | undefined
  watchdogMs?: number
  /** Called after each sweep (tests count sweeps; entry points may log). */
  onSweep?: (report: SweepReport) => void
}

/** A running in-process bus. */
export interface InProcessBus {
  queue: CoalescingQueue
  /** Resolves once every watch has listed and opened its stream. */
  ready(): Promise<void>
  stop(): Promise<void>
}

/** Starts watches, queue workers and the sweep timer. */
export function startInProcessBus(options: InProcessBusOptions): InProcessBus {
  const { kube, log, metrics } = options
  const queue = createCoalescingQueue({
    concurrency: options.concurrency ?? 4,
    timers: options.timers,
    handler: async (key, observed, related, wake) => {
      const delay = requeueDelay(await options.runner.run(key, observed, related, wake))
      return delay === undefined ? undefined : { requeueAfterMs: delay }
    },
    onError: (key, error) =>
      log.error({ key: formatKey(key), err: errorMessage(error) }, 'run threw'),
    onDepth: (depth) => metrics?.queueDepth.set({ queue: 'in-process' }, depth),
  })

  const reconciled = new Set(options.reconciled.map((t) => t.kind))
  const mappings = inFlight()
  let stopping = false
  const deliverChange: ChangeDelivery = ({ type, obj: delivered, change, order }) => {
    // A change an interceptor delivers late, after stop began, is dropped like any lost hint.
    if (stopping) return
    metrics?.hints.inc({ transport: 'watch' })
    // Stripped once, here: the mappers may keep it for a while (the health checks' gathered
    // listing), and the queue then holds this same copy instead of a second one.
    const obj = heldObject(delivered)
    // The object itself, for its own key: as current as anything a GET would return now; and for
    // a key whose controller reads objects of this type (a Machine's Node), the same as related.
    const current = change !== 'DELETED' ? obj : undefined
    const own = current && reconciled.has(type.kind) ? current : undefined
    const related = current && [{ type, obj: current, delivered: order }]
    const enqueue = (keys: readonly ObjectKey[]) => {
      for (const key of keys) {
        if (!inNamespaceScope(key, options.namespace)) continue
        if (own && isKeyOf(key, type.kind, own)) {
          const wake = ownChangeWake(key, { kind: type.kind, obj: own, delivered: order })
          queue.add(key, 0, own, undefined, wake)
        } else if (related && readsRelated(options.runner, key, type)) {
          queue.add(key, 0, undefined, related)
        } else queue.add(key, 0)
      }
    }
    mappings
      .track(mapChange(options.mappers, { kind: type.kind, obj, change }, kube, enqueue))
      .catch((error: unknown) => log.warn({ err: errorMessage(error) }, 'mapping a change failed'))
  }
  const deliver = options.interceptChanges?.(deliverChange) ?? deliverChange

  const events = options.events ?? true
  let watched = 0
  const sources: WatchSource[] = events
    ? startWatches(
        {
          ...options,
          kube,
          log,
          onRestart: (type, cause) => metrics?.watchRestarts.inc({ resource: type.plural, cause }),
        },
        (type, obj, change) => deliver({ type, obj, change, order: ++watched }),
      )
    : []

  const stopSweep =
    options.sweepPeriodMs > 0
      ? startSweepTimer({
          periodMs: options.sweepPeriodMs,
          // The watches' first lists already enqueue every object: sweep one period later.
          delayFirst: events && options.watched.length > 0,
          timers: options.timers,
          run: async () => {
            const report = await sweep({
              kube,
              types: options.reconciled,
              log,
              namespace: options.namespace,
              related: (type) => options.runner.related(type.kind),
              // Each key waits for room, so the queue holds about one page of listed objects
              // and their Nodes, not the fleet's (the Nodes are why: without them a sweep
              // costs a Node GET per Machine).
              enqueue: async (key, listed, related) => {
                await queue.readyBelow(defaultPageSize)
                queue.add(key, 0, listed, related)
              },
            })
            options.onSweep?.(report)
          },
        })
      : () => {}

  return {
    queue,
    async ready() {
      await Promise.all(sources.map((s) => s.ready()))
    },
    // In order: no new changes (sweep, watches), then the mappings under way finish while the
    // apiserver still answers (a health check's listing gathers changes for a second), then the
    // queue stops and waits for the reconciles running. Only then may the caller stop the
    // apiserver without a burst of failed mappings.
    async stop() {
      stopping = true
      stopSweep()
      await Promise.all(sources.map((s) => s.stop()))
      await mappings.settled()
      await queue.stop()
    },
  }
}

/** Whether a run of `key` reads objects of `type` (a Machine's Node). */
function readsRelated(runner: Runner, key: ObjectKey, type: ResourceType): boolean {
  return runner.related(key.kind).some((related) => related.type.kind === type.kind)
}
