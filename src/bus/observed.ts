/**
 * @module What a queued key may carry besides its name: the object as the list or watch event that
 * produced the key delivered it, so the reconcile need not GET it again. It is a hint like the key
 * itself: possibly stale, never trusted for a write (every write carries its resourceVersion).
 */
import type { KubeObject } from '../kube/resource'

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
