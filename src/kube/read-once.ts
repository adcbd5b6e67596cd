/**
 * @module A KubeClient for one reconcile that reads each object at most once: a second GET of an
 * object returns what the first one (or a write of that object) returned. Several phases of one
 * reconcile can then each ask for, say, the Machine's Node (the kwok provider's instance check,
 * the Node link) without paying a request each. It lives for one invocation and is dropped with
 * it, so every reconcile still starts from fresh state; nothing is cached across reconciles.
 */
import type { KubeClient } from './kube-client'
import { type KubeObject, type ObjectRef, type ResourceType, refOf } from './resource'

function slot(type: ResourceType, ref: ObjectRef): string {
  const namespace = type.namespaced ? (ref.namespace ?? '') : ''
  return `${type.group}/${type.plural}/${namespace}/${ref.name}`
}

/** Which object `held` is, as a string: two held objects with the same slot are one object. */
export function heldSlot({ type, obj }: HeldObject): string {
  return slot(type, refOf(obj))
}

/** An object the invocation already holds (its list or watch event delivered it). */
export interface HeldObject {
  type: ResourceType
  obj: KubeObject
}

/**
 * Wraps `kube` for one invocation. Writes go through and update what later reads see: a patch
 * (of the object or its status), apply or create remembers the object the apiserver answered; a
 * delete the apiserver carried out at once makes it read as gone; a pending or failed delete or
 * any other subresource write forgets it, so the next read asks again. Lists, watches,
 * evictions and Events are not affected. `held` objects answer the first read of themselves.
 */
export function readOnce(kube: KubeClient, held: readonly HeldObject[] = []): KubeClient {
  const reads = new Map<string, Promise<KubeObject | undefined>>()
  for (const one of held) reads.set(heldSlot(one), Promise.resolve(one.obj))
  function remember<T extends KubeObject>(
    type: ResourceType,
    ref: ObjectRef,
    write: Promise<T>,
    keep = true,
  ): Promise<T> {
    const key = slot(type, ref)
    reads.delete(key)
    return write.then((written) => {
      if (keep) reads.set(key, Promise.resolve(written))
      return written
    })
  }
  return {
    get<T extends KubeObject>(type: ResourceType, ref: ObjectRef) {
      const key = slot(type, ref)
      let read = reads.get(key)
      if (!read) {
        read = kube.get(type, ref)
        // A failed read is not remembered: the next caller asks again.
        read.catch(() => reads.delete(key))
        reads.set(key, read)
      }
      return read as Promise<T | undefined>
    },
    list: (type, options) => kube.list(type, options),
    create: (type, obj) => remember(type, refOf(obj), kube.create(type, obj)),
    mergePatch: (type, ref, patch, options) =>
      remember(
        type,
        ref,
        kube.mergePatch(type, ref, patch, options),
        (options?.subresource ?? 'status') === 'status',
      ),
    apply: (type, obj, options) =>
      remember(
        type,
        refOf(obj),
        kube.apply(type, obj, options),
        (options.subresource ?? 'status') === 'status',
      ),
    delete: (type, ref, options) => {
      const key = slot(type, ref)
      reads.delete(key)
      // Removed at once: for the rest of the run it reads as gone without asking (the kwok
      // provider's look after deleting its Node, then the Machine's). Pending or failed: ask again.
      return kube.delete(type, ref, options).then(
        (outcome) => {
          if (outcome === 'gone') reads.set(key, Promise.resolve(undefined))
          else reads.delete(key)
          return outcome
        },
        (error: unknown) => {
          reads.delete(key)
          throw error
        },
      )
    },
    evict: (ref, options) => kube.evict(ref, options),
    recordEvent: (event) => kube.recordEvent(event),
    watch: (type, options, onEvent) => kube.watch(type, options, onEvent),
    close: () => kube.close(),
  }
}
