/**
 * @module The crash scenario's workload: seeded create / scale / delete cycles of MachineSets
 * (class `standard`, 1-3 replicas, every other set in one zone), applied through the apiserver as
 * a user would.
 */
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { chaosMachineSet } from './aws-world'
import type { Intents } from './intents'
import type { Random } from './random'

export type Cycle =
  | { type: 'create'; name: string; replicas: number; zone?: string }
  | { type: 'scale'; name: string; replicas: number }
  | { type: 'delete'; name: string }

/** The zone of the odd-numbered sets. */
const pinnedZone = 'eu-west-1a'

/** Picks the next cycle from the sets that exist now (at most `maxSets` at once). */
export function nextCycle(
  random: Random,
  sets: ReadonlyMap<string, number>,
  index: number,
  maxSets: number,
): Cycle {
  const names = [...sets.keys()]
  const choices: Cycle['type'][] = []
  if (names.length < maxSets) choices.push('create', 'create')
  if (names.length > 0) choices.push('scale', 'scale', 'delete')
  const type = random.pick(choices)
  if (type === 'create') {
    // Every other set in one zone: its creates share launch groups (several Machines, one call).
    const zone = index % 2 === 1 ? { zone: pinnedZone } : {}
    return { type, name: `set-${index}`, replicas: random.int(1, 3), ...zone }
  }
  const name = random.pick(names)
  if (type === 'delete') return { type, name }
  // Always a real change: up or down by at least one, staying within 0-3.
  const current = sets.get(name) ?? 0
  const options = [0, 1, 2, 3].filter((n) => n !== current)
  return { type, name, replicas: random.pick(options) }
}

/**
 * Applies one cycle and updates `sets` (name -> replicas) to what is now wanted. The audit's
 * intents record it first: the controller may act on it before the call returns.
 */
export async function applyCycle(
  kube: KubeClient,
  namespace: string,
  sets: Map<string, number>,
  cycle: Cycle,
  intents: Intents,
): Promise<void> {
  const ref = { namespace, name: cycle.name }
  intents.want(cycle.name, cycle.type === 'delete' ? 0 : cycle.replicas)
  switch (cycle.type) {
    case 'create':
      await kube.create(
        machineApiTypes.machineSet,
        chaosMachineSet(namespace, cycle.name, cycle.replicas, cycle.zone),
      )
      sets.set(cycle.name, cycle.replicas)
      return
    case 'scale':
      await kube.mergePatch(machineApiTypes.machineSet, ref, { spec: { replicas: cycle.replicas } })
      sets.set(cycle.name, cycle.replicas)
      return
    case 'delete':
      await kube.delete(machineApiTypes.machineSet, ref)
      sets.delete(cycle.name)
      return
  }
}

/** A short description for progress logs. */
export function describeCycle(cycle: Cycle): string {
  return cycle.type === 'delete'
    ? `delete ${cycle.name}`
    : `${cycle.type} ${cycle.name} -> ${cycle.replicas}`
}
