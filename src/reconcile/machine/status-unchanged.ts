/**
 * @module Whether a status merge patch would change anything. A converged Machine is reconciled on
 * every sweep and every Node heartbeat; writing an identical status each time costs a PATCH, an
 * admission round trip and a watch event that wakes the MachineSet and health checks for nothing.
 */
import { isDeepStrictEqual } from 'node:util'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** RFC 7386: `patch` applied to `target` (null deletes, objects merge, anything else replaces). */
export function applyMergePatch(target: Json | undefined, patch: Json): Json {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch
  const base: { [key: string]: Json } =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {}
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete base[key]
    else base[key] = applyMergePatch(base[key], value)
  }
  return base
}

/** True when merging `patch` into `current` leaves it as it is (undefined fields are not sent). */
export function statusUnchanged(current: object | undefined, patch: object): boolean {
  const sent = JSON.parse(JSON.stringify(patch)) as Json
  const before = (current ?? {}) as Json
  return isDeepStrictEqual(applyMergePatch(before, sent), before)
}
