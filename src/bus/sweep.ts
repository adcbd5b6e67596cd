/**
 * @module The sweep: lists every object of each kind page by page and enqueues its key with the
 * listed object, so a reconcile need not read it again, and with the related objects its
 * controller says it reads: a Machine's Node, from a paged list of Nodes walked alongside
 * (related-pages.ts), and its MachineClass, from one listing of the few classes. It bounds how long a lost event can delay convergence. Memory holds about
 * one page of each at a time, never the fleet.
 */
import { errorMessage } from '../errors'
import type { KubeClient } from '../kube/kube-client'
import { keyOf, type ObjectKey } from '../kube/object-key'
import { listPages } from '../kube/paged-list'
import type { HeldObject } from '../kube/read-once'
import type { KubeObject, ResourceType } from '../kube/resource'
import type { Logger } from '../observability/logger'
import type { Timers } from '../timers'
import {
  listPosition,
  type RelatedCursor,
  type RelatedObjects,
  relatedCursor,
} from './related-pages'

/** Options of sweep(). */
export interface SweepOptions {
  kube: KubeClient
  types: readonly ResourceType[]
  /**
   * Receives each key, its listed object and the related objects found for it; awaited, so a
   * consumer can apply backpressure.
   */
  enqueue: (
    key: ObjectKey,
    listed: KubeObject,
    related: readonly HeldObject[],
  ) => void | Promise<void>
  /** The related objects a reconcile of `type` reads, to hand over from a paged list of each. */
  related?: ((type: ResourceType) => readonly RelatedObjects[]) | undefined
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
    const listOptions = {
      namespace: options.namespace,
      ...(options.pageSize ? { limit: options.pageSize } : {}),
    }
    const sources = (options.related?.(type) ?? []).map((related) => ({
      related,
      cursor: related.few
        ? wholeListing(options, related, listOptions)
        : relatedCursor(
            related.type,
            relatedPages(options, related, listOptions),
            relatedListFailed(options, related),
          ),
    }))
    try {
      for await (const page of listPages(options.kube, type, listOptions)) {
        report.pages++
        const held = await Promise.all(
          sources.map(({ related, cursor }) => heldFor(related, cursor, page.items)),
        )
        for (const [index, obj] of page.items.entries()) {
          const key = keyOf(type.kind, obj)
          if (!key) continue
          await options.enqueue(
            key,
            obj,
            held.flatMap((perItem) => perItem[index] ?? []),
          )
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

/** The related type's pages, listed with the sweep's own options. */
function relatedPages(
  options: SweepOptions,
  related: RelatedObjects,
  listOptions: { namespace?: string | undefined; limit?: number },
): () => AsyncIterator<readonly KubeObject[]> {
  return () => {
    const pages = listPages(options.kube, related.type, {
      ...listOptions,
      namespace: related.type.namespaced ? options.namespace : undefined,
    })
    return (async function* () {
      for await (const page of pages) yield page.items
    })()
  }
}

/** A failed list of related objects only costs the reconciles' own GETs. */
function relatedListFailed(options: SweepOptions, related: RelatedObjects) {
  return (error: unknown) =>
    options.log.info(
      { kind: related.type.kind, err: errorMessage(error) },
      'listing related objects failed; reconciles read them',
    )
}

/**
 * Every object of a `few` related type, listed once on the first page that wants one and kept
 * for the rest of this sweep (one kind's).
 */
function wholeListing(
  options: SweepOptions,
  related: RelatedObjects,
  listOptions: { namespace?: string | undefined; limit?: number },
): RelatedCursor {
  let listing: Promise<Map<string, KubeObject>> | undefined
  async function listAll(): Promise<Map<string, KubeObject>> {
    const all = new Map<string, KubeObject>()
    const pages = relatedPages(options, related, listOptions)()
    for (let next = await pages.next(); !next.done; next = await pages.next()) {
      for (const obj of next.value) {
        const ref = { namespace: obj.metadata?.namespace, name: obj.metadata?.name ?? '' }
        all.set(listPosition(related.type, ref), obj)
      }
    }
    return all
  }
  return {
    async take(wanted) {
      if (wanted.size === 0) return new Map()
      listing ??= listAll().catch((error: unknown) => {
        relatedListFailed(options, related)(error)
        return new Map()
      })
      const all = await listing
      const found = new Map<string, KubeObject>()
      for (const position of wanted) {
        const obj = all.get(position)
        if (obj) found.set(position, obj)
      }
      return found
    },
  }
}

/** For each object of `items`, the related objects the cursor found for it. */
async function heldFor(
  related: RelatedObjects,
  cursor: RelatedCursor,
  items: readonly KubeObject[],
): Promise<HeldObject[][]> {
  const refs = items.map((obj) => related.refsOf(obj))
  const found = await cursor.take(
    new Set(refs.flat().map((ref) => listPosition(related.type, ref))),
  )
  return refs.map((list) =>
    list.flatMap((ref) => {
      const obj = found.get(listPosition(related.type, ref))
      return obj ? [{ type: related.type, obj }] : []
    }),
  )
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
