/**
 * @module The sweep: lists every object of each kind page by page and enqueues its key. It bounds
 * how long a lost event can delay convergence. Memory holds one page at a time, never the fleet.
 */
import { errorMessage } from '../errors'
import type { KubeClient } from '../kube/kube-client'
import { keyOf, type ObjectKey } from '../kube/object-key'
import { listPages } from '../kube/paged-list'
import type { ResourceType } from '../kube/resource'
import type { Logger } from '../observability/logger'
import type { Timers } from './timers'

/** Options of sweep(). */
export interface SweepOptions {
  kube: KubeClient
  types: readonly ResourceType[]
  /** Receives each key; awaited, so a publisher can apply backpressure. */
  enqueue: (key: ObjectKey) => void | Promise<void>
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
          await options.enqueue(key)
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
 * Runs `run` every `periodMs` (the first run right away), never two at once: a sweep slower than
 * its period delays the next one instead of piling up. Returns a stop function.
 */
export function startSweepTimer(options: {
  periodMs: number
  timers: Timers
  run: () => Promise<unknown>
}): () => void {
  let stopped = false
  let cancel = () => {}
  const tick = async () => {
    if (stopped) return
    await options.run().catch(() => undefined)
    if (!stopped) cancel = options.timers.setTimer(options.periodMs, () => void tick())
  }
  void tick()
  return () => {
    stopped = true
    cancel()
  }
}
