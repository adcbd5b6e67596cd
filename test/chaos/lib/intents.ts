/**
 * @module What a scenario asked for, per group of Machines (a MachineSet, a MachineDeployment or
 * one Machine): how many it wants now, and how many creations and deletions its requests allow in
 * total. A Machine created beyond the allowance is a duplicate; one deleted beyond it was lost.
 */

export interface GroupIntent {
  wanted: number
  /** Sum of every increase asked for (plus replacements, e.g. a rollout). */
  creations: number
  /** Sum of every decrease asked for (plus replacements). */
  deletions: number
}

export interface Intents {
  /** The group should have `count` Machines from now on (0 for a deleted set or Machine). */
  want(group: string, count: number): void
  /** Every Machine of the group is replaced (a rollout): `count` more creations and deletions. */
  replace(group: string, count: number): void
  groups(): ReadonlyMap<string, GroupIntent>
}

export function createIntents(): Intents {
  const groups = new Map<string, GroupIntent>()
  const of = (group: string): GroupIntent => {
    const found = groups.get(group)
    if (found) return found
    const created = { wanted: 0, creations: 0, deletions: 0 }
    groups.set(group, created)
    return created
  }
  return {
    want(group, count) {
      const intent = of(group)
      if (count > intent.wanted) intent.creations += count - intent.wanted
      else intent.deletions += intent.wanted - count
      intent.wanted = count
    },
    replace(group, count) {
      const intent = of(group)
      intent.creations += count
      intent.deletions += count
    },
    groups: () => groups,
  }
}
