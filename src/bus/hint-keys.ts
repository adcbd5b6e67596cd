/**
 * @module Turns a change hint into keys. A Reference-mode hint names an object but carries none of
 * its fields, so when a mapper needs more than the name (owners, labels, annotations) the object
 * is read fresh first; a vanished object still wakes itself.
 */
import type { KubeClient } from '../kube/kube-client'
import type { ObjectKey } from '../kube/object-key'
import type { KubeObject, ResourceType } from '../kube/resource'
import { type EventMapper, mapChange } from './event-mapping'

/**
 * The keys for a change of `kind` (full object or reference), via `mappers`, handed to `deliver`
 * as each mapper finds them (see mapChange), with the changed object when it is whole (a Resource
 * event's, or the one read fresh here), for runs that read objects of its kind.
 */
export async function keysForChange(
  change: { kind: string; object: KubeObject; full: boolean },
  deps: { kube: KubeClient; mappers: readonly EventMapper[]; types: readonly ResourceType[] },
  deliver: (keys: ObjectKey[], object: KubeObject | undefined) => void,
): Promise<void> {
  let object = change.object
  let full = change.full
  const relevant = deps.mappers.filter((m) => m.sourceKind === change.kind)
  const type = deps.types.find((t) => t.kind === change.kind)
  if (!full && relevant.some((m) => m.needsObject) && type && object.metadata?.name) {
    const fresh = await deps.kube.get(type, {
      namespace: object.metadata.namespace,
      name: object.metadata.name,
    })
    if (fresh) {
      object = fresh
      full = true
    }
  }
  const whole = full ? object : undefined
  await mapChange(deps.mappers, { kind: change.kind, obj: object }, deps.kube, (keys) =>
    deliver(keys, whole),
  )
}
