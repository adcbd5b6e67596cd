/**
 * @module The one "status unchanged" check of every kind: whether a status merge patch would change
 * anything. A converged object is reconciled on every sweep (a Machine on every Node heartbeat);
 * writing an identical status each time costs a PATCH, an admission round trip and a watch event
 * that wakes the controllers above it for nothing.
 */
import { isDeepStrictEqual } from 'node:util'
import { applyMergePatch } from '../../kube/merge-patch'

/** True when merging `patch` into `current` leaves it as it is (undefined fields are not sent). */
export function statusUnchanged(current: object | undefined, patch: object): boolean {
  const sent = JSON.parse(JSON.stringify(patch)) as Record<string, unknown>
  const before = current ?? {}
  return isDeepStrictEqual(applyMergePatch(structuredClone(before), sent), before)
}
