/**
 * @module Hands a sweep's objects the related objects they read (a Machine's Node) from a paged
 * list of those, walked alongside the sweep's own pages, so a reconcile need not GET them.
 *
 * The apiserver lists in key order (namespace, then name), and related objects are usually named
 * after their owners (a kwok Node is `<namespace>.<name>` of its Machine), so both walks advance
 * together: for each page of the swept kind the cursor reads related pages only until it passes
 * the furthest name that page wants, keeps the wanted objects and the read-ahead past that name,
 * and drops the rest. Memory holds about one page of each, whatever the fleet size. A name the
 * walk has already passed (an owner named out of order) or a failed list costs nothing but the
 * GET the reconcile makes without a held object; nothing outlives one sweep.
 */
import type { KubeObject, ObjectRef, ResourceType } from '../kube/resource'

/** The objects of another type a reconcile of a kind reads, as its controller names them. */
export interface RelatedObjects {
  readonly type: ResourceType
  /** The objects of `type` that a reconcile of `obj` reads (e.g. its Node). */
  refsOf(obj: KubeObject): ObjectRef[]
  /**
   * A few objects that many reconciles share (a namespace's MachineClasses), named unlike their
   * owners: a sweep lists them whole once and hands each reconcile its own, instead of walking
   * them alongside its pages. Memory holds all of them for the sweep.
   */
  readonly few?: boolean
}

/** Where an object sorts in a list of its type: `namespace/name`, or its name when cluster-scoped. */
export function listPosition(type: ResourceType, ref: ObjectRef): string {
  return type.namespaced ? `${ref.namespace ?? ''}/${ref.name}` : ref.name
}

/** Related objects for one page at a time, from `pages` (the related type's list, in order). */
export interface RelatedCursor {
  /** The objects among `wanted` (list positions) found; reads on only as far as the last one. */
  take(wanted: ReadonlySet<string>): Promise<Map<string, KubeObject>>
}

/**
 * A cursor over `pages`; `onError` hears a failed page read, after which the cursor
 * finds nothing more (the reconciles then read for themselves).
 */
export function relatedCursor(
  type: ResourceType,
  pages: () => AsyncIterator<readonly KubeObject[]>,
  onError: (error: unknown) => void,
): RelatedCursor {
  let walk: AsyncIterator<readonly KubeObject[]> | undefined
  let done = false
  /** The position of the last object read; the walk is past everything up to it. */
  let reached: string | undefined
  /** Objects read but past the last page's wants: the next page may want them. */
  let ahead = new Map<string, KubeObject>()

  return {
    async take(wanted) {
      const found = new Map<string, KubeObject>()
      if (wanted.size === 0) return found
      let furthest = ''
      for (const position of wanted) if (position > furthest) furthest = position
      for (const [position, obj] of ahead) if (wanted.has(position)) found.set(position, obj)
      while (!done && (reached === undefined || reached < furthest)) {
        let next: IteratorResult<readonly KubeObject[]>
        try {
          walk ??= pages()
          next = await walk.next()
        } catch (error) {
          done = true
          onError(error)
          break
        }
        if (next.done) {
          done = true
          break
        }
        for (const obj of next.value) {
          const position = listPosition(type, {
            namespace: obj.metadata?.namespace,
            name: obj.metadata?.name ?? '',
          })
          reached = position
          if (wanted.has(position)) found.set(position, obj)
          else if (position > furthest) ahead.set(position, obj)
        }
      }
      const kept = new Map<string, KubeObject>()
      for (const [position, obj] of ahead) if (position > furthest) kept.set(position, obj)
      ahead = kept
      return found
    },
  }
}
