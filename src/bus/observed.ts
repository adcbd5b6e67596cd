/**
 * @module What a queued key may carry besides its name: the object as the list or watch event that
 * produced the key delivered it, so the reconcile need not GET it again. It is a hint like the key
 * itself: possibly stale, never trusted for a write (every write carries its resourceVersion).
 */
import { type HeldObject, heldSlot } from '../kube/read-once'
import type { KubeObject } from '../kube/resource'

/**
 * What a queued key carries: its own object, and objects of other kinds its reconcile reads (a
 * Machine's Node), each as a list or watch event delivered it.
 */
export interface Hint {
  observed?: KubeObject | undefined
  related?: readonly RelatedHint[] | undefined
}

/**
 * A related object as a hint carries it. `delivered` is its place in the order its watch delivered
 * changes (the Node whose change woke a Machine): one watch per type delivers the changes of an
 * object in the order they were stored, so of two versions both with a place, the later delivered
 * is the newer, even when the mappings that turned them into keys finished out of order. A
 * sweep's listed object has none: it is not ordered against the watch.
 */
export interface RelatedHint extends HeldObject {
  delivered?: number | undefined
}

/**
 * The object to keep when two hints for one key coalesce. A hint without an object (a Node change
 * naming its Machine, a timer) keeps the other's object: nothing newer of that object was seen.
 * Two different versions keep neither: the order of a list and a watch is unknown, so the
 * reconcile reads fresh rather than risk acting on the older one.
 */
export function mergeObserved(
  current: KubeObject | undefined,
  next: KubeObject | undefined,
): KubeObject | undefined {
  if (!current) return next
  if (!next) return current
  const a = current.metadata?.resourceVersion
  return a !== undefined && a === next.metadata?.resourceVersion ? current : undefined
}

/** Two hints for one key as one: each object merged as mergeObserved merges the key's own. */
export function mergeHints(current: Hint, next: Hint): Hint {
  return {
    observed: mergeObserved(current.observed, next.observed),
    related: mergeRelated(current.related, next.related),
  }
}

/** How many objects a hint holds, its own and related ones (what a queue's bound counts). */
export function heldCount(hint: Hint): number {
  return Number(hint.observed !== undefined) + (hint.related?.length ?? 0)
}

/**
 * Per related object: the later delivered of two versions one watch delivered, else the version
 * both hints agree on, else none (the reconcile reads fresh).
 */
export function mergeRelated(
  current: readonly RelatedHint[] | undefined,
  next: readonly RelatedHint[] | undefined,
): readonly RelatedHint[] | undefined {
  if (!current?.length) return next
  if (!next?.length) return current
  const merged = new Map<string, RelatedHint | undefined>()
  for (const held of [...current, ...next]) {
    const slot = heldSlot(held)
    if (!merged.has(slot)) merged.set(slot, held)
    else merged.set(slot, newer(merged.get(slot), held))
  }
  const kept = [...merged.values()].filter((held) => held !== undefined)
  return kept.length > 0 ? kept : undefined
}

function newer(kept: RelatedHint | undefined, next: RelatedHint): RelatedHint | undefined {
  if (kept?.delivered !== undefined && next.delivered !== undefined) {
    return next.delivered > kept.delivered ? next : kept
  }
  return kept && mergeObserved(kept.obj, next.obj) ? kept : undefined
}

/** `hint` as a queue holds it: every object in it as heldObject() keeps it. */
export function heldHint(hint: Hint): Hint {
  return {
    observed: hint.observed && heldObject(hint.observed),
    related: hint.related?.map((held) => ({ ...held, obj: heldObject(held.obj) })),
  }
}

/**
 * `obj` as a queue holds it: without `metadata.managedFields`, which no reconcile reads and which
 * is often the largest part of a stored object (one entry per field manager). A write based on it
 * leaves the stored managedFields alone (the apiserver keeps them when a request omits them), as
 * controller-runtime's TransformStripManagedFields does for its caches.
 */
export function heldObject(obj: KubeObject): KubeObject {
  if (!obj.metadata?.managedFields) return obj
  const { managedFields: _, ...metadata } = obj.metadata
  return { ...obj, metadata }
}
