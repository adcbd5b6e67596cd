/**
 * @module Maps a changed object to the keys that must react. Generic over plain object shapes
 * (ownerReferences, labels, selectors) so it works for any kind; `machine-api-mappers.ts` wires it
 * for the machine-api kinds.
 */

import { LABELS } from '../api/group'
import { machineKeyFromNode, nodeProviderId, providerIdHash } from '../api/node-link'
import { type SelectorLike, selectorMatches } from '../api/shared/label-selector'
import type { KubeClient } from '../kube/kube-client'
import { keyOf, type ObjectKey } from '../kube/object-key'
import { listPages } from '../kube/paged-list'
import type { KubeObject, ResourceType } from '../kube/resource'
import type { Timers } from '../timers'
import type { ChangeType } from './watch-source'

/**
 * Turns a change of a `sourceKind` object into keys. May read the apiserver (`kube`). `change`
 * is the watch's change type when known (`SYNC`: delivered by a (re)list, not by the stream).
 */
export interface EventMapper {
  readonly sourceKind: string
  /** False when only the name is needed (a Reference-mode hint is then not re-read first). */
  readonly needsObject: boolean
  map(obj: KubeObject, kube: KubeClient, change?: ChangeType): Promise<ObjectKey[]> | ObjectKey[]
}

/**
 * Every object maps to itself: a Machine change reconciles that Machine. A deletion the watch
 * delivered maps to nothing: the object is gone, and every kind's reconcile of a missing object
 * reads it, finds nothing and does nothing (each one's cleanup ran under its finalizer, before
 * the object went); a same-named successor wakes itself with its own ADDED.
 */
export function selfMapper(kind: string): EventMapper {
  return {
    sourceKind: kind,
    needsObject: false,
    map: (obj, _kube, change) =>
      change === 'DELETED' ? [] : [keyOf(kind, obj)].filter((k) => k !== undefined),
  }
}

/** The owners of kind `ownerKind` (controller owner first), in the object's namespace. Pure. */
export function ownerKeys(obj: KubeObject, ownerKind: string): ObjectKey[] {
  const refs = (obj.metadata?.ownerReferences ?? []).filter((r) => r.kind === ownerKind)
  refs.sort((a, b) => Number(b.controller === true) - Number(a.controller === true))
  const namespace = obj.metadata?.namespace
  return refs.map((r) =>
    namespace ? { kind: ownerKind, namespace, name: r.name } : { kind: ownerKind, name: r.name },
  )
}

/** A change of `sourceKind` reconciles its owners of `ownerKind` (Machine -> MachineSet). */
export function ownerMapper(sourceKind: string, ownerKind: string): EventMapper {
  return { sourceKind, needsObject: true, map: (obj) => ownerKeys(obj, ownerKind) }
}

/** The `spec.selector` of a selecting object (MachineHealthCheck, MachineSet). */
export function specSelector(obj: KubeObject): SelectorLike | undefined {
  const spec = obj.spec as { selector?: SelectorLike } | undefined
  return spec?.selector
}

/**
 * A change of `sourceKind` reconciles every `selector` object in its namespace whose selector
 * matches its labels (Machine -> MachineHealthChecks). Lists that kind page by page: there are few
 * such objects per namespace, unlike the objects they select. Changes mapped at the same time
 * share one listing per namespace: a watch's first list delivers every object at once, and 10,000
 * Machines made 10,000 concurrent lists (benchmark: scale-memory), many failing for lack of
 * connections. A listing that started a moment before a new selector object existed is harmless:
 * that object's own reconcile reads what it selects.
 */
export function selectorMapper(
  sourceKind: string,
  selector: ResourceType,
  selectorOf: (obj: KubeObject) => SelectorLike | undefined = specSelector,
  candidates: SharedListing = sharedListing(selector),
): EventMapper {
  return {
    sourceKind,
    needsObject: true,
    async map(obj, kube, change) {
      const keys: ObjectKey[] = []
      const listed = await candidates(kube, obj.metadata?.namespace, change === 'SYNC')
      for (const candidate of listed) {
        if (!selectorMatches(selectorOf(candidate), obj.metadata?.labels)) continue
        const key = keyOf(selector.kind, candidate)
        if (key) keys.push(key)
      }
      return keys
    },
  }
}

/**
 * Every `type` object of a namespace, listed for the callers of one moment (see sharedListing);
 * `now` skips the gathering.
 */
export type SharedListing = (
  kube: KubeClient,
  namespace: string | undefined,
  now?: boolean,
) => Promise<KubeObject[]>

/** When a shared listing waits for more callers before it lists (see sharedListing). */
export interface ListingGather {
  timers: Timers
  /** How long the first caller's listing waits for others to join (0: lists at once). */
  ms: number
}

/**
 * Lists every `type` object of a namespace, sharing one listing among the callers that ask while
 * it waits or runs and none afterwards (no cache: a later call lists again). With `gather`, the
 * listing starts `gather.ms` after the first caller asked, so a burst of changes (one Machine's
 * create, patches and status writes, or a MachineSet's scale) shares one list instead of one per
 * change: each caller gets a listing started after it asked, at most `gather.ms` late. A caller
 * with `now` (a change a (re)list delivered) shares only a listing that starts at once: a relist
 * delivers the whole fleet in a burst that shares the in-flight listing anyway, and gathering would
 * keep every listed object waiting in memory at the same time (worker first sync of 10,000
 * Machines: 278 MB peak with gathering, 241 MB without).
 */
export function sharedListing(type: ResourceType, gather?: ListingGather): SharedListing {
  const inFlight = new WeakMap<KubeClient, Map<string, Promise<KubeObject[]>>>()
  return (kube, namespace, now = false) => {
    const shared = inFlight.get(kube) ?? new Map<string, Promise<KubeObject[]>>()
    inFlight.set(kube, shared)
    const gathers = !now && gather !== undefined && gather.ms > 0
    const slot = `${gathers ? 'gathered' : 'now'}/${namespace ?? ''}`
    let listing = shared.get(slot)
    if (!listing) {
      const started = gathers ? after(gather) : Promise.resolve()
      listing = started
        .then(() => listAll(kube, type, namespace))
        .finally(() => shared.delete(slot))
      shared.set(slot, listing)
    }
    return listing
  }
}

function after({ timers, ms }: ListingGather): Promise<void> {
  return new Promise((resolve) => timers.setTimer(ms, resolve))
}

async function listAll(
  kube: KubeClient,
  type: ResourceType,
  namespace: string | undefined,
): Promise<KubeObject[]> {
  const items: KubeObject[] = []
  for await (const page of listPages(kube, type, { namespace })) items.push(...page.items)
  return items
}

/** A Node change reconciles its Machine: annotation first, providerID-hash label otherwise. */
export function nodeToMachineMapper(machine: ResourceType, nodeKind = 'Node'): EventMapper {
  return {
    sourceKind: nodeKind,
    needsObject: true,
    async map(node, kube) {
      const linked = machineKeyFromNode(node, machine.kind)
      if (linked) return [linked]
      const providerId = nodeProviderId(node)
      if (!providerId) return []
      const page = await kube.list(machine, {
        labelSelector: `${LABELS.providerIdHash}=${providerIdHash(providerId)}`,
      })
      return page.items.map((m) => keyOf(machine.kind, m)).filter((k) => k !== undefined)
    },
  }
}

/** A change as the mappers see it. */
export interface MappedChange {
  kind: string
  obj: KubeObject
  change?: ChangeType | undefined
}

/**
 * Maps a change through every mapper of its kind, handing each mapper's keys to `deliver` as soon
 * as that mapper has them, so a mapper that reads the apiserver or gathers changes (the health
 * checks' listing) does not hold back a key that needs nothing (a Machine's own). The mappers of one kind yield
 * keys of different kinds, so nothing repeats between deliveries. Resolves once every mapper has
 * delivered; rejects with the first failure after the others settled.
 */
export async function mapChange(
  mappers: readonly EventMapper[],
  change: MappedChange,
  kube: KubeClient,
  deliver: (keys: ObjectKey[]) => void,
): Promise<void> {
  const relevant = mappers.filter((m) => m.sourceKind === change.kind)
  const settled = await Promise.allSettled(
    relevant.map(async (mapper) => deliver(await mapper.map(change.obj, kube, change.change))),
  )
  for (const result of settled) if (result.status === 'rejected') throw result.reason
}

/**
 * A change of `sourceKind` reconciles every `referrer` object of its namespace that names it
 * (MachineClass -> the MachineSets whose template uses it), so a fixed class reaches the sets that
 * hold Failed Machines at once. Lists the referrers (few per namespace) through `candidates`.
 */
export function referenceMapper(
  sourceKind: string,
  referrer: ResourceType,
  refersTo: (candidate: KubeObject, name: string) => boolean,
  candidates: SharedListing = sharedListing(referrer),
): EventMapper {
  return {
    sourceKind,
    needsObject: true,
    async map(obj, kube, change) {
      const name = obj.metadata?.name
      if (name === undefined || change === 'DELETED') return []
      const listed = await candidates(kube, obj.metadata?.namespace, change === 'SYNC')
      return listed
        .filter((candidate) => refersTo(candidate, name))
        .map((candidate) => keyOf(referrer.kind, candidate))
        .filter((k): k is ObjectKey => k !== undefined)
    },
  }
}
