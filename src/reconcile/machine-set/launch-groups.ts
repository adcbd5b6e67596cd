/**
 * @module Which of a pass's new Machines launch together: those of one zone form a group (at most
 * `maxLaunchGroupSize`), whose instances come from one EC2 call. Pure: the creates in, each
 * Machine's place out. A Machine alone in its zone gets no place and launches on its own.
 */
import { createHash } from 'node:crypto'
import { type LaunchPlace, maxLaunchGroupSize } from '../../api/launch-group'

/** One Machine the pass creates. */
export interface PlannedCreate {
  name: string
  zone: string | undefined
}

/**
 * The places of `creates`. The group id hashes the set, the first name index the pass handed
 * out (its name claim, unique per pass) and the zone, so two passes never share a group.
 */
export function planLaunchGroups(input: {
  setUid: string
  firstIndex: number
  creates: readonly PlannedCreate[]
}): Map<string, LaunchPlace> {
  const byZone = new Map<string, string[]>()
  for (const create of input.creates) {
    const zone = create.zone ?? ''
    byZone.set(zone, [...(byZone.get(zone) ?? []), create.name])
  }
  const places = new Map<string, LaunchPlace>()
  for (const [zone, names] of byZone) {
    for (let start = 0; start < names.length; start += maxLaunchGroupSize) {
      const members = names.slice(start, start + maxLaunchGroupSize)
      if (members.length < 2) continue
      const group = createHash('sha256')
        .update(`${input.setUid}/${input.firstIndex}/${zone}/${start}`)
        .digest('hex')
        .slice(0, 16)
      members.forEach((name, index) => {
        places.set(name, { group, index, size: members.length })
      })
    }
  }
  return places
}
