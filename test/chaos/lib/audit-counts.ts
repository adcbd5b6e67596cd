/**
 * @module The audit's arithmetic, pure: duplicate instances from every instance ever launched and
 * the Machines seen; per group, Machines created or deleted beyond what the requests allow, and
 * Machines wanted that did not exist.
 */
import type { Instance } from '@aws-sdk/client-ec2'
import { tagKeys } from '../../../src/providers/aws/tags'
import type { GroupIntent } from './intents'
import type { SeenMachine } from './machine-ledger'

/**
 * The Machine UID an instance was launched for: its UID tag, or, for a launch group's instance
 * no member tagged yet, the UID of the Machine that held its place (`placeOwners`, by
 * `<group>/<index>`); '' when none.
 */
export function launchedFor(instance: Instance, placeOwners: ReadonlyMap<string, string>): string {
  const tag = (key: string) => instance.Tags?.find((t) => t.Key === key)?.Value
  const uid = tag(tagKeys.machineUid)
  if (uid) return uid
  const group = tag(tagKeys.launchGroup)
  return group ? (placeOwners.get(`${group}/${instance.AmiLaunchIndex}`) ?? '') : ''
}

/**
 * Instances beyond one per Machine that existed, terminated ones included; an instance whose
 * Machine UID no Machine ever had counts whole.
 */
export function duplicateInstances(
  launched: readonly Instance[],
  seen: ReadonlyMap<string, SeenMachine>,
): number {
  const placeOwners = new Map(
    [...seen.values()].flatMap((m) => (m.place ? [[m.place, m.uid] as const] : [])),
  )
  const perUid = new Map<string, number>()
  for (const i of launched) {
    const uid = launchedFor(i, placeOwners)
    perUid.set(uid, (perUid.get(uid) ?? 0) + 1)
  }
  return [...perUid].reduce((sum, [uid, n]) => sum + (seen.has(uid) ? n - 1 : n), 0)
}

export interface GroupCounts {
  /** Machines created beyond the requested creations (a slot filled twice). */
  duplicateMachines: number
  /** Deletions beyond the requested ones, not counting the removal of a duplicate. */
  deletedUnrequested: number
  /**
   * Per group, the larger of the Machines missing at a checkpoint and the unrequested deletions:
   * a Machine deleted without a request and not replaced is missing too, and counts once.
   */
  lost: number
}

export function groupCounts(
  seen: Iterable<SeenMachine>,
  intents: ReadonlyMap<string, GroupIntent>,
  missing: ReadonlyMap<string, number>,
): GroupCounts {
  const byGroup = new Map<string, SeenMachine[]>()
  for (const m of seen) byGroup.set(m.group, [...(byGroup.get(m.group) ?? []), m])
  const result: GroupCounts = { duplicateMachines: 0, deletedUnrequested: 0, lost: 0 }
  for (const group of new Set([...byGroup.keys(), ...intents.keys(), ...missing.keys()])) {
    const machines = byGroup.get(group) ?? []
    const intent = intents.get(group) ?? { creations: 0, deletions: 0 }
    const extra = Math.max(0, machines.length - intent.creations)
    const deleted = machines.filter((m) => m.deleted).length
    const unrequested = Math.max(0, deleted - intent.deletions - extra)
    result.duplicateMachines += extra
    result.deletedUnrequested += unrequested
    result.lost += Math.max(unrequested, missing.get(group) ?? 0)
  }
  return result
}
