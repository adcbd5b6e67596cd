/**
 * @module The one write of a MachineClass's status.unavailableOfferings: a merge of what the
 * writer found into the list the class holds, conditional on the class's resourceVersion and
 * redone over a fresh read on Conflict, so concurrent writers (sibling Machines' launches, a
 * MachineSet's interrupted Machines, on any worker) merge their findings instead of overwriting
 * each other's, and a writer that finds its entries already there writes nothing.
 */
import { isDeepStrictEqual } from 'node:util'
import { machineApiTypes } from '../../api/resource-types'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import type { Clock } from '../../clock'
import { hasKubeReason } from '../../kube/errors'
import type { KubeClient } from '../../kube/kube-client'
import { type KubeObject, refOf } from '../../kube/resource'
import { writeStatus } from '../runtime/status-write'
import { unavailableOfferingTTLMs } from '../shared/unavailable-offerings'

/** Writes an update at most this many times (each Conflict re-reads the class). */
const maxWriteAttempts = 4

/** A MachineClass as read from the apiserver. */
export type ClassObject = MachineClass & KubeObject
type Entries = NonNullable<NonNullable<MachineClass['status']>['unavailableOfferings']>

/**
 * Merges `update(current, now, ttlMs)` into the class's list. Returns the class as it stands
 * after (written, or as last read when nothing changed; undefined when it is gone) and whether
 * this call wrote. Throws what the apiserver answers other than a Conflict, and the last Conflict.
 */
export async function updateUnavailableOfferings(
  deps: { kube: KubeClient; clock: Clock },
  machineClass: ClassObject,
  update: (current: Entries, now: Date, ttlMs: number) => Entries,
): Promise<{ machineClass: ClassObject | undefined; wrote: boolean }> {
  const type = machineApiTypes.machineClass
  let observed: ClassObject | undefined = machineClass
  for (let attempt = 1; observed && attempt <= maxWriteAttempts; attempt++) {
    const current = observed.status?.unavailableOfferings ?? []
    const next = update(current, deps.clock.now(), unavailableOfferingTTLMs(observed))
    if (isDeepStrictEqual(next, current)) return { machineClass: observed, wrote: false }
    try {
      const status = { unavailableOfferings: next }
      const written = await writeStatus<ClassObject>(deps.kube, type, { observed, status })
      return { machineClass: written, wrote: true }
    } catch (error) {
      if (!hasKubeReason(error, 'Conflict') || attempt === maxWriteAttempts) throw error
      observed = await deps.kube.get<ClassObject>(type, refOf(observed))
    }
  }
  return { machineClass: observed, wrote: false }
}
