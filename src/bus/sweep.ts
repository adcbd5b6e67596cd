/**
 * @module The sweep: lists every object of each kind page by page and enqueues its key with the
 * listed object, so a reconcile need not read it again. It bounds how long a lost event can delay
 * convergence. Memory holds one page at a time, never the fleet.
 */
import { errorMessage } from '../errors'
import type { KubeClient } from '../kube/kube-client'
import { keyOf, type ObjectKey } from '../kube/object-key'
import { listPages } from '../kube/paged-list'
import type { KubeObject, ResourceType } from '../kube/resource'
import type { Logger } from '../observability/logger'
import type { Timers } from './timers'

/** Options of sweep(). */
export interface SweepOptions {
  kube: KubeClient
  types: readonly ResourceType[]
  /** Receives each key and its listed object; awaited, so a consumer can apply backpressure. */
  enqueue: (key: ObjectKey, listed: KubeObject) => void | Promise<void>
  log: Logger
  pageSize?: number
  namespace?: string | undefined
}

/** What one sweep did. A kind whose listing failed is counted in `failedKinds` and skipped. */
export interface SweepReport {
  keys: number
  pages: number
  failedKinds: string[]
}

/** Lists each type and enqueues every key. Never throws: one failing kind does not stop others. */
export async function sweep(options: SweepOptions): Promise<SweepReport> {
  const report: SweepReport = { keys: 0, pages: 0, failedKinds: [] }
  for (const type of options.types) {
    try {
      const pages = listPages(options.kube, type, {
        namespace: options.namespace,
        ...(options.pageSize ? { limit: options.pageSize } : {}),
      })
      for await (const page of pages) {
        report.pages++
        for (const obj of page.items) {
          const key = keyOf(type.kind, obj)
          if (!key) continue
          await options.enqueue(key, obj)
          report.keys++
        }
      }
    } catch (error) {
      report.failedKinds.push(type.kind)
      options.log.warn({ kind: type.kind, err: errorMessage(error) }, 'sweep of a kind failed')
    }
  }
  options.log.info({ ...report }, 'sweep done')
  return report
}

/**
 * Runs `run` every `periodMs` (the first run right away, or after one period with `delayFirst`),
 * never two at once: a sweep slower than its period delays the next one instead of piling up.
 * Returns a stop function.
 */
export function startSweepTimer(options: {
  periodMs: number
  timers: Timers
  run: () => Promise<unknown>
  delayFirst?: boolean
}): () => void {
  let stopped = false
  let cancel = () => {}
  const tick = async () => {
    if (stopped) return
    await options.run().catch(() => undefined)
    if (!stopped) cancel = options.timers.setTimer(options.periodMs, () => void tick())
  }
  if (options.delayFirst) cancel = options.timers.setTimer(options.periodMs, () => void tick())
  else void tick()
  return () => {
    stopped = true
    cancel()
  }
}
