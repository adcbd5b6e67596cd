/**
 * @module MachineClass -> the Failed Machines a change of it may un-fail: those of its namespace
 * that name it (spec.classRef), no MachineSet controls (a set replaces its own), and that failed on
 * another generation of it (status.failureClassGeneration). Their reconcile then provisions again
 * (src/reconcile/machine/standing-failure.ts), so fixing a bad AMI reaches them at once instead of
 * at the next sweep.
 *
 * Only a change the class's own controller has not observed yet (status.observedGeneration behind
 * metadata.generation: a spec edit) lists the namespace's Machines; the class's status writes (a
 * launch's misses, the capacity, expiries), which are most of its changes, list nothing. Without
 * the MachineClass controller deployed every change of a class lists; the listing is shared by the
 * changes of one moment.
 */

import { keyOf, type ObjectKey } from '../kube/object-key'
import type { KubeObject, ResourceType } from '../kube/resource'
import { type EventMapper, type SharedListing, sharedListing } from './event-mapping'

interface ClassView {
  metadata?: { name?: string; generation?: number }
  status?: { observedGeneration?: number }
}

interface MachineView {
  metadata?: { ownerReferences?: Array<{ kind?: string; controller?: boolean }> }
  spec?: { classRef?: { name?: unknown } }
  status?: { failureReason?: unknown; failureClassGeneration?: unknown }
}

/** True when the class's change is one its controller has not observed yet (a spec edit). */
export function unobservedClassChange(machineClass: KubeObject): boolean {
  const view = machineClass as ClassView
  const generation = view.metadata?.generation
  return generation !== undefined && view.status?.observedGeneration !== generation
}

/**
 * True when `machine` is a standalone Machine of class `name` that failed on a generation of it
 * other than `generation`. Pure.
 */
export function failedOnOtherGeneration(
  machine: KubeObject,
  name: string,
  generation: number,
): boolean {
  const view = machine as MachineView
  const failedOn = view.status?.failureClassGeneration
  return (
    view.spec?.classRef?.name === name &&
    Boolean(view.status?.failureReason) &&
    typeof failedOn === 'number' &&
    failedOn !== generation &&
    !(view.metadata?.ownerReferences ?? []).some(
      (o) => o.controller === true && o.kind === 'MachineSet',
    )
  )
}

/** The mapper of `machine` (the Machine type) for MachineClass changes; see the module comment. */
export function classToFailedMachinesMapper(
  classKind: string,
  machine: ResourceType,
  candidates: SharedListing = sharedListing(machine),
): EventMapper {
  return {
    sourceKind: classKind,
    needsObject: true,
    async map(obj, kube, change) {
      const name = obj.metadata?.name
      const generation = (obj as ClassView).metadata?.generation
      if (name === undefined || generation === undefined || change === 'DELETED') return []
      if (!unobservedClassChange(obj)) return []
      const listed = await candidates(kube, obj.metadata?.namespace, change === 'SYNC')
      return listed
        .filter((m) => failedOnOtherGeneration(m, name, generation))
        .map((m) => keyOf(machine.kind, m))
        .filter((k): k is ObjectKey => k !== undefined)
    },
  }
}
