/**
 * @module The zones of a MachineClass that can host a Machine now: the zones its provider found
 * (status.offeredZones, else status.zones as written before offeredZones existed, else a `zones`
 * list in the provider spec, of the class or inline: kwok) without those where the class's
 * status.unavailableOfferings holds every offering of the class (each instance type with each
 * capacity type; in a zone, only the types status.zoneInstanceTypes says it offers) unexpired,
 * unless every zone is: then all stay (a launch retries, and the list
 * expires in minutes). The MachineClass controller publishes them as status.zones; a MachineSet
 * balances its new Machines over them, computing them again at its own `now` from the offered
 * zones, so an entry that just expired opens its zone at once. Pure.
 */

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
  const status = classObject?.status as { offeredZones?: unknown; zones?: unknown } | undefined
  const classSpec = classObject?.spec as { providerSpec?: { zones?: unknown } } | undefined
  return (
    stringList(status?.offeredZones) ??
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

/** The instance types each zone offers, from status.zoneInstanceTypes (undefined: unknown). */
function offeredTypesByZone(status: { zoneInstanceTypes?: unknown } | undefined) {
  if (!Array.isArray(status?.zoneInstanceTypes)) return undefined
  const byZone = new Map<string, Set<string>>()
  for (const entry of status.zoneInstanceTypes as Array<Record<string, unknown>>) {
    if (typeof entry?.zone !== 'string') continue
    byZone.set(entry.zone, new Set(stringList(entry.instanceTypes) ?? []))
  }
  return byZone
}

/**
 * `zones` without those whose every offering the class lists as unavailable at `now`. Where
 * status.zoneInstanceTypes says which types a zone offers, only those count for it: a type EC2
 * does not offer there is skipped before any launch, so it cannot keep the zone open.
 */
export function hostableZones(
  zones: string[],
  classObject: { [field: string]: unknown } | undefined,
  now: Date,
): string[] {
  const spec = classObject?.spec as { providerSpec?: unknown } | undefined
  const offerings = offeringsOf(spec?.providerSpec)
  const status = classObject?.status as
    | { unavailableOfferings?: unknown; zoneInstanceTypes?: unknown }
    | undefined
  const entries = Array.isArray(status?.unavailableOfferings)
    ? (status.unavailableOfferings as Array<Record<string, unknown>>)
    : []
  if (!offerings || entries.length === 0) return zones
  const out = new Set(
    entries
      .filter((e) => Date.parse(String(e.expiresAt)) > now.getTime())
      .map((e) => `${e.zone}/${e.instanceType}/${e.capacityType}`),
  )
  const offeredIn = offeredTypesByZone(status)
  const open = zones.filter((z) => {
    const offered = offeredIn?.get(z)
    return offerings.some(([t, c]) => (!offered || offered.has(t)) && !out.has(`${z}/${t}/${c}`))
  })
  return open.length > 0 ? open : zones
}
