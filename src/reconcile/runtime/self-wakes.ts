/**
 * @module Keeps a run's own writes from waking its key before the time the run asked for. A run
 * that failed (backoff) or asked to look again later (requeue) writes to its own object on the way
 * (a status message, a claim annotation added and dropped), and each write comes back as a watch
 * event naming the same key: run at once, it skipped the backoff, and a provider whose writes the
 * apiserver refuses retried about ten times a second forever; a drain pass writing "Evicted ..."
 * evicted a recreated pod five times a second. Here the runner remembers, per key with a timer
 * pending, the versions of its own object the last run read or wrote; a wake carrying one of
 * those versions, and nothing else, waits for the timer instead. Any other wake (someone else's
 * change, a Node, a timer, a sweep) still runs at once, so nothing waits on a backoff that a
 * user's edit should cut short, and a run that returned without a timer is woken as before (a
 * Machine's progress from one step to the next rides on its own writes).
 */

import type { OwnChangeWake } from '../../bus/wake'
import type { KubeClient } from '../../kube/kube-client'
import { formatKey, type ObjectKey } from '../../kube/object-key'
import { type KubeObject, type ObjectRef, type ResourceType, refOf } from '../../kube/resource'

/** Versions of one object a run saw, at most this many kept (a run writes its object a few times). */
const maxVersions = 16

interface Pending {
  /** When the timer the last run returned is due (ms since the epoch). */
  dueAt: number
  /** Versions of the key's own object the last run read or wrote. */
  seen: ReadonlySet<string>
}

/** Per-key memory of the last run's timer and the versions it saw. */
export interface SelfWakes {
  /**
   * How long a run woken by `wake` should wait instead (the rest of the pending timer), or
   * undefined to run now. `currentVersion` reads the object's version when the wake did not
   * carry it; it is called only while a timer is pending.
   */
  deferral(
    key: ObjectKey,
    wake: OwnChangeWake | undefined,
    nowMs: number,
    currentVersion: () => Promise<string | undefined>,
  ): Promise<number | undefined>
  /** Records how a run ended: a timer due in `afterMs` (undefined: none), and the versions it saw. */
  settled(key: ObjectKey, afterMs: number | undefined, nowMs: number, seen: Set<string>): void
  /** Keys with a timer remembered (for tests). */
  size(): number
}

/** An empty memory. Only keys whose last run left a timer take room. */
export function createSelfWakes(): SelfWakes {
  const pending = new Map<string, Pending>()
  return {
    async deferral(key, wake, nowMs, currentVersion) {
      if (!wake) return undefined
      const entry = pending.get(formatKey(key))
      if (!entry || entry.dueAt <= nowMs) return undefined
      const version = wake.resourceVersion ?? (await currentVersion())
      return version !== undefined && entry.seen.has(version) ? entry.dueAt - nowMs : undefined
    },
    settled(key, afterMs, nowMs, seen) {
      const id = formatKey(key)
      if (afterMs === undefined || afterMs <= 0 || seen.size === 0) pending.delete(id)
      else pending.set(id, { dueAt: nowMs + afterMs, seen })
    },
    size: () => pending.size,
  }
}

/**
 * `kube` for one run of the object `type`/`ref`, adding to `seen` the resourceVersion of every
 * copy of that object a read or write returns. Everything else passes through untouched.
 */
export function seeingOwnVersions(
  kube: KubeClient,
  type: ResourceType,
  ref: ObjectRef,
  seen: Set<string>,
): KubeClient {
  const own = (t: ResourceType, r: ObjectRef) =>
    t.group === type.group &&
    t.plural === type.plural &&
    r.name === ref.name &&
    (r.namespace ?? '') === (ref.namespace ?? '')
  const note = <T extends KubeObject | undefined>(t: ResourceType, r: ObjectRef, obj: T): T => {
    const version = obj?.metadata?.resourceVersion
    if (version !== undefined && own(t, r) && seen.size < maxVersions) seen.add(version)
    return obj
  }
  return {
    async get<T extends KubeObject>(t: ResourceType, r: ObjectRef) {
      return note(t, r, await kube.get<T>(t, r))
    },
    async create<T extends KubeObject>(t: ResourceType, obj: T) {
      return note(t, refOf(obj), await kube.create(t, obj))
    },
    async mergePatch<T extends KubeObject>(
      t: ResourceType,
      r: ObjectRef,
      patch: object,
      options?: { subresource?: string },
    ) {
      return note(t, r, await kube.mergePatch<T>(t, r, patch, options))
    },
    async apply<T extends KubeObject>(
      t: ResourceType,
      obj: T,
      options: { fieldManager: string; force?: boolean; subresource?: string },
    ) {
      return note(t, refOf(obj), await kube.apply(t, obj, options))
    },
    list: (t, options) => kube.list(t, options),
    delete: (t, r, options) => kube.delete(t, r, options),
    evict: (r, options) => kube.evict(r, options),
    recordEvent: (event) => kube.recordEvent(event),
    watch: (t, options, onEvent) => kube.watch(t, options, onEvent),
    close: () => kube.close(),
  }
}
