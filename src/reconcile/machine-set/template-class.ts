/**
 * @module What a MachineSet reads from the MachineClass its template names, and only when a
 * decision needs it: the class generation while Failed Machines wait (a changed class ends their
 * backoff), and the zones new Machines are balanced over while Machines are missing. The zones
 * are the class's `status.zones` (the MachineClass controller writes the zones its provider can
 * launch in), else a `zones` list in the provider spec (kwok), of the class or inline. A zone
 * where the class's `status.unavailableOfferings` holds every offering of the class (each
 * instance type with each capacity type) cannot host a Machine now and is left out, unless every
 * zone is: then all stay (a launch retries, and the list expires in minutes).
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

/** The offerings a class's provider spec names (instance types x capacity types), if it says. */
function offeringsOf(providerSpec: unknown): Array<[string, string]> | undefined {
  const spec = providerSpec as
    | { instanceTypes?: unknown; instanceType?: unknown; capacityTypes?: unknown; spot?: unknown }
    | undefined
  const types =
    stringList(spec?.instanceTypes) ??
    (typeof spec?.instanceType === 'string' ? [spec.instanceType] : undefined)
  if (!types) return undefined
  const capacity = stringList(spec?.capacityTypes) ?? (spec?.spot ? ['spot'] : ['on-demand'])
  return types.flatMap((t) => capacity.map((c): [string, string] => [t, c]))
}

/** `zones` without those whose every offering the class lists as unavailable at `now`. */
export function hostableZones(
  zones: string[],
  classObject: { [field: string]: unknown } | undefined,
  now: Date,
): string[] {
  const spec = classObject?.spec as { providerSpec?: unknown } | undefined
  const offerings = offeringsOf(spec?.providerSpec)
  const status = classObject?.status as { unavailableOfferings?: unknown } | undefined
  const entries = Array.isArray(status?.unavailableOfferings)
    ? (status.unavailableOfferings as Array<Record<string, unknown>>)
    : []
  if (!offerings || entries.length === 0) return zones
  const out = new Set(
    entries
      .filter((e) => Date.parse(String(e.expiresAt)) > now.getTime())
      .map((e) => `${e.zone}/${e.instanceType}/${e.capacityType}`),
  )
  const open = zones.filter((z) => offerings.some(([t, c]) => !out.has(`${z}/${t}/${c}`)))
  return open.length > 0 ? open : zones
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
