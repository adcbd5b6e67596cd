/**
 * @module Which zone each new Machine of a MachineSet goes to. Pure. Each create takes the zone
 * with the fewest Machines of the set among the zones that can host one now (ties by the order of
 * that list), so the counts over those zones differ by at most one once the creates are done. The
 * choice is written to the new Machine's `spec.failureDomain`, which the provider honours.
 *
 * Machines being deleted do not count (they are leaving), nor do Machines in zones outside the
 * list (a zone gone from the class hosts nothing new). Without a list nothing is chosen and the
 * provider picks, as before.
 */
/** The part of a Machine the balance reads. */
export interface ZonedMachine {
  metadata: { deletionTimestamp?: string | Date | undefined }
  spec?: { failureDomain?: string | undefined } | undefined
}

/** The zone of a Machine, or undefined when it has none. */
export function zoneOf(m: ZonedMachine): string | undefined {
  return m.spec?.failureDomain
}

/** How many live Machines each of `zones` holds. */
export function zoneCounts(
  zones: readonly string[],
  machines: ZonedMachine[],
): Map<string, number> {
  const counts = new Map(zones.map((z) => [z, 0]))
  for (const m of machines) {
    const zone = zoneOf(m)
    if (zone === undefined || m.metadata.deletionTimestamp) continue
    const count = counts.get(zone)
    if (count !== undefined) counts.set(zone, count + 1)
  }
  return counts
}

/** The zones for `count` new Machines beside `machines`, in creation order (empty: no zones). */
export function chooseZones(
  zones: readonly string[],
  machines: ZonedMachine[],
  count: number,
): string[] {
  if (zones.length === 0) return []
  const counts = zoneCounts(zones, machines)
  const chosen: string[] = []
  for (let i = 0; i < count; i++) {
    let best = zones[0] as string
    for (const zone of zones) {
      if ((counts.get(zone) ?? 0) < (counts.get(best) ?? 0)) best = zone
    }
    counts.set(best, (counts.get(best) ?? 0) + 1)
    chosen.push(best)
  }
  return chosen
}
