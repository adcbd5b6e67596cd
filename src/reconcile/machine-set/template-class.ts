/**
 * @module What a MachineSet reads from the MachineClass its template names, and only when a
 * decision needs it: the class generation while Failed Machines wait (a changed class ends their
 * backoff), and the zones new Machines are balanced over while Machines are missing. The zones
 * are the class's `status.zones` (the MachineClass controller writes the zones its provider can
 * launch in now), else a `zones` list in the provider spec (kwok), of the class or inline.
 */
import { machineApiTypes } from '../../api/resource-types'
import type { KubeClient } from '../../kube/kube-client'
import { isFailedMachine } from './replacement'
import { isControlledBy, isDeleting, type MachineObject, type MachineSetObject } from './types'

/** The class facts the planner takes (see MachineSetObservation). */
export interface TemplateClassFacts {
  classGeneration?: number
  zones?: string[]
}

function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined
  const list = value.filter((v): v is string => typeof v === 'string' && v.length > 0)
  return list.length > 0 ? list : undefined
}

/** The zones a class or provider spec offers, when it lists any. */
export function zonesFrom(
  classObject: { [field: string]: unknown } | undefined,
  inlineValue: unknown,
): string[] | undefined {
  const status = classObject?.status as { zones?: unknown } | undefined
  const classSpec = classObject?.spec as { providerSpec?: { zones?: unknown } } | undefined
  return (
    stringList(status?.zones) ??
    stringList(classSpec?.providerSpec?.zones) ??
    stringList((inlineValue as { zones?: unknown } | undefined)?.zones)
  )
}

/** Reads the template's class when Machines are missing or Failed; no read otherwise. */
export async function readTemplateClass(
  kube: KubeClient,
  set: MachineSetObject,
  machines: MachineObject[],
): Promise<TemplateClassFacts> {
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
  const zones = zonesFrom(found, undefined)
  return {
    ...(failed && generation !== undefined ? { classGeneration: generation } : {}),
    ...(zones ? { zones } : {}),
  }
}
