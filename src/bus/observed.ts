/**
 * @module What a queued key may carry besides its name: the object as the list or watch event that
 * produced the key delivered it, so the reconcile need not GET it again. It is a hint like the key
 * itself: possibly stale, never trusted for a write (every write carries its resourceVersion).
 */
import type { HeldObject } from '../kube/read-once'
import type { KubeObject } from '../kube/resource'

/**
 * What a queued key carries: its own object, and objects of other kinds its reconcile reads (a
 * Machine's Node), each as a list or watch event delivered it.
 */
export interface Hint {
  observed?: KubeObject | undefined
  related?: readonly HeldObject[] | undefined
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

/** Whether a hint holds any object (what a queue's bound on held objects counts). */
export function holdsObjects(hint: Hint): boolean {
  return hint.observed !== undefined || (hint.related?.length ?? 0) > 0
}

function mergeRelated(
  current: readonly HeldObject[] | undefined,
  next: readonly HeldObject[] | undefined,
): readonly HeldObject[] | undefined {
  if (!current?.length) return next
  if (!next?.length) return current
  const merged = new Map<string, HeldObject | undefined>()
  for (const held of [...current, ...next]) {
    const slot = heldSlot(held)
    if (!merged.has(slot)) merged.set(slot, held)
    else {
      const kept = merged.get(slot)
      merged.set(slot, kept && mergeObserved(kept.obj, held.obj) ? kept : undefined)
    }
  }
  const kept = [...merged.values()].filter((held) => held !== undefined)
  return kept.length > 0 ? kept : undefined
}

function heldSlot({ type, obj }: HeldObject): string {
  return `${type.group}/${type.plural}/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`
}

/** `hint` as a queue holds it: every object in it as heldObject() keeps it. */
export function heldHint(hint: Hint): Hint {
  return {
    observed: hint.observed && heldObject(hint.observed),
    related: hint.related?.map(({ type, obj }) => ({ type, obj: heldObject(obj) })),
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
