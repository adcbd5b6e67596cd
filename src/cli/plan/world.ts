/**
 * @module The simulated world of `plan`: MachineSets and Machines as the controllers would leave
 * them, advanced by the real MachineSet planner. Assumptions: a created Machine becomes Ready and
 * available before the next step, a deleted Machine is gone by then, and each set's status is up
 * to date when the MachineDeployment looks (the controllers converge to that between passes).
 */

import { applyMergePatch, patchFields } from '../../kube/merge-patch'
import { type MachineSetAction, planMachineSet } from '../../reconcile/machine-set/plan'
import { computeMachineSetStatus } from '../../reconcile/machine-set/status'
import {
  controllerReference,
  isControlledBy,
  isDeleting,
  type MachineObject,
  type MachineSetObject,
} from '../../reconcile/machine-set/types'
import { newMachineName, type PlanEntry } from './steps'

// Availability is judged "eventually": minReadySeconds has passed for every Ready Machine.
const eventually = new Date(8.64e15)

/** Sets and Machines being simulated, and how to show the names of Machines not created yet. */
export interface World {
  sets: MachineSetObject[]
  machines: MachineObject[]
  /** uids of the sets that exist in the cluster (their Machine names are known in advance). */
  existingSetUids: ReadonlySet<string>
  /** Machine name (as simulated) -> name to print. */
  shown: Map<string, string>
  /** Machines created so far per set that does not exist yet, for placeholder names. */
  newCount: Map<string, number>
  /** Simulated seconds since `startMs`, one per created object (creation order for policies). */
  tick: number
  startMs: number
}

/** A world from what the cluster holds now. */
export function createWorld(
  sets: MachineSetObject[],
  machines: MachineObject[],
  startMs: number,
): World {
  return {
    sets: structuredClone(sets),
    machines: structuredClone(machines),
    existingSetUids: new Set(sets.flatMap((s) => (s.metadata.uid ? [s.metadata.uid] : []))),
    shown: new Map(),
    newCount: new Map(),
    tick: 0,
    startMs,
  }
}

/** The next simulated timestamp. */
export function nextTimestamp(world: World): string {
  world.tick += 1
  return new Date(world.startMs + world.tick * 1000).toISOString()
}

/** How to print a Machine name. */
export function shownName(world: World, name: string): string {
  return world.shown.get(name) ?? name
}

/**
 * Brings the world to where the controllers settle between steps: Machines being deleted are gone
 * and each set's status counts its Machines (all Ready ones available).
 */
export function settle(world: World): void {
  world.machines = world.machines.filter((m) => !isDeleting(m))
  for (const set of world.sets) {
    set.metadata.generation ??= 1
    const owned = world.machines.filter((m) => isControlledBy(m, set.metadata.uid))
    // Merged over the stored status, as the controller's status write is: the name count stays.
    set.status = { ...set.status, ...computeMachineSetStatus(set, { owned }, eventually).status }
  }
}

/** Runs the MachineSet planner on each set (by name) until none has anything left to do. */
export function runSetPasses(world: World, sets: MachineSetObject[]): PlanEntry[] {
  const entries: PlanEntry[] = []
  const ordered = [...sets].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
  for (const set of ordered) {
    // Batches of 50 take several passes; 10,000 bounds a runaway plan.
    for (let pass = 0; pass < 200; pass++) {
      const { actions, names } = planMachineSet({
        set,
        machines: world.machines,
        now: new Date(world.startMs + world.tick * 1000),
      })
      if (actions.length === 0) break
      if (names) set.status = { ...set.status, ...names }
      for (const action of actions) entries.push(applySetAction(world, set, action))
    }
  }
  return entries
}

function applySetAction(world: World, set: MachineSetObject, action: MachineSetAction): PlanEntry {
  const name = set.metadata.name
  const machine = world.machines.find((m) => m.metadata.name === action.machine.metadata.name)
  switch (action.type) {
    case 'create': {
      const created = structuredClone(action.machine)
      const at = nextTimestamp(world)
      created.metadata.uid = `planned-${created.metadata.name}`
      created.metadata.creationTimestamp = at
      created.status = {
        phase: 'Running',
        nodeRef: { name: `node-${created.metadata.name}` },
        conditions: [
          { type: 'Ready', status: 'True', reason: 'Planned', message: '', lastTransitionTime: at },
        ],
      } as MachineObject['status']
      world.machines.push(created)
      if (!world.existingSetUids.has(set.metadata.uid ?? '')) {
        const n = (world.newCount.get(name) ?? 0) + 1
        world.newCount.set(name, n)
        world.shown.set(created.metadata.name, newMachineName(name, n))
      }
      return { type: 'create-machine', set: name, machine: shownName(world, created.metadata.name) }
    }
    case 'delete':
      world.machines = world.machines.filter((m) => m !== machine)
      return {
        type: 'delete-machine',
        set: name,
        machine: shownName(world, action.machine.metadata.name),
        reason: action.reason,
      }
    case 'adopt':
      if (machine) {
        machine.metadata.ownerReferences = [
          ...(machine.metadata.ownerReferences ?? []),
          controllerReference({ ...set, kind: 'MachineSet' }),
        ]
      }
      return {
        type: 'adopt-machine',
        set: name,
        machine: shownName(world, action.machine.metadata.name),
      }
    case 'release':
      if (machine) {
        machine.metadata.ownerReferences = machine.metadata.ownerReferences?.filter(
          (r) => !r.controller,
        )
      }
      return {
        type: 'release-machine',
        set: name,
        machine: shownName(world, action.machine.metadata.name),
      }
    case 'update':
      if (machine) applyMergePatch(machine, action.patch)
      return {
        type: 'update-machine',
        set: name,
        machine: shownName(world, action.machine.metadata.name),
        fields: patchFields(action.patch),
      }
    default: {
      const never: never = action
      throw new Error(`unknown action ${JSON.stringify(never)}`)
    }
  }
}
