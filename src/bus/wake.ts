/**
 * @module Why a key runs, as far as a transport knows it. A wake by a change of the key's own
 * object carries that object's resourceVersion: the runner compares it with the versions its last
 * run of the key read and wrote, so a run's own writes do not cut short the backoff or requeue it
 * returned (see runtime/self-wakes.ts). Every other wake (a timer, a sweep, another object's
 * change, a hint of unknown origin) carries no Wake, and runs the key as always.
 */
import type { ObjectKey } from '../kube/object-key'
import type { KubeObject } from '../kube/resource'

/**
 * The key's own object changed, and nothing else woke it. `resourceVersion` is the newest version
 * the changes carried (undefined when the transport names the object without it: the runner then
 * reads it). `delivered` orders two wakes of one watch (see RelatedHint.delivered).
 */
export interface OwnChangeWake {
  readonly type: 'own-change'
  readonly resourceVersion: string | undefined
  readonly delivered?: number | undefined
}

/**
 * The wake for `key` from a change of `obj` (of `kind`), or undefined when `obj` is another
 * object or the change is a deletion (a deleted object's key always runs).
 */
export function ownChangeWake(
  key: ObjectKey,
  change: { kind: string; obj: KubeObject; deleted?: boolean; delivered?: number | undefined },
): OwnChangeWake | undefined {
  const { kind, obj } = change
  if (change.deleted || !isKeyOf(key, kind, obj)) return undefined
  return {
    type: 'own-change',
    resourceVersion: obj.metadata?.resourceVersion,
    delivered: change.delivered,
  }
}

/** Whether `key` names `obj` of `kind` (the key a self mapping produced for it). */
export function isKeyOf(key: ObjectKey, kind: string, obj: KubeObject): boolean {
  return (
    key.kind === kind &&
    key.name === obj.metadata?.name &&
    (key.namespace ?? '') === (obj.metadata?.namespace ?? '')
  )
}

/**
 * Two wakes of one key as one: own changes only while both are (the later delivered version,
 * else the later one handed in); undefined, any cause, as soon as either is something else.
 */
export function mergeWakes(
  current: OwnChangeWake | undefined,
  next: OwnChangeWake | undefined,
): OwnChangeWake | undefined {
  if (!current || !next) return undefined
  if (current.delivered !== undefined && next.delivered !== undefined) {
    return next.delivered >= current.delivered ? next : current
  }
  return next
}
