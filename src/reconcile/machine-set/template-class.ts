/**
 * @module What a MachineSet reads from the MachineClass its template names, and only when a
 * decision needs it: the class generation while Failed Machines wait (a changed class ends their
 * backoff), and the zones new Machines are balanced over while Machines are missing: the zones
 * that can host one now (shared/hostable-zones.ts), from the zones the class's provider offers.
 */
import { machineApiTypes } from '../../api/resource-types'
import type { KubeClient } from '../../kube/kube-client'
import { hostableZones, zonesFrom } from '../shared/hostable-zones'
import { isFailedMachine } from './replacement'
import { isControlledBy, isDeleting, type MachineObject, type MachineSetObject } from './types'

/** The class facts the planner takes (see MachineSetObservation). */
export interface TemplateClassFacts {
  classGeneration?: number
  zones?: string[]
}

/** Reads the template's class when Machines are missing or Failed; no read otherwise. */
export async function readTemplateClass(
  kube: KubeClient,
  set: MachineSetObject,
  observed: { machines: MachineObject[]; now: Date },
): Promise<TemplateClassFacts> {
  const { machines, now } = observed
  const spec = set.spec.template.spec
  const owned = machines.filter((m) => isControlledBy(m, set.metadata.uid) && !isDeleting(m))
  const failed = owned.some(isFailedMachine)
  const missing = owned.filter((m) => !isFailedMachine(m)).length < (set.spec.replicas ?? 0)
  const className = spec.classRef?.name
  if (!className) {
    const zones = missing ? zonesFrom(undefined, spec.providerSpec?.value) : undefined
    return zones ? { zones } : {}
  }
  if (!failed && !missing) return {}
  const ref = { namespace: set.metadata.namespace ?? '', name: className }
  const found = await kube.get(machineApiTypes.machineClass, ref)
  const generation = found?.metadata?.generation
  const listed = zonesFrom(found, undefined)
  const zones = listed && hostableZones(listed, found, now)
  return {
    ...(failed && generation !== undefined ? { classGeneration: generation } : {}),
    ...(zones ? { zones } : {}),
  }
}
