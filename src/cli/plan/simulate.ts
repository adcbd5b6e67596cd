/**
 * @module The plan simulation: the real MachineDeployment and MachineSet planners run against a
 * simulated world until they have nothing left to do. Pure and deterministic: the same cluster
 * state and manifest always give the same steps.
 */

import { applyMergePatch, patchFields } from '../../kube/merge-patch'
import {
  type MachineDeploymentObject,
  revisionOf,
} from '../../reconcile/machine-deployment/machine-sets'
import {
  type DeploymentAction,
  planMachineDeployment,
} from '../../reconcile/machine-deployment/plan'
import {
  isControlledBy,
  type MachineObject,
  type MachineSetObject,
} from '../../reconcile/machine-set/types'
import { previewDeploymentReplacements, previewSetReplacements } from './replacements'
import type { FinalSet, PlanEntry, PlanReport, PlanStep } from './steps'
import { createWorld, nextTimestamp, runSetPasses, settle, type World } from './world'

/** What the simulation starts from: the desired object and what the cluster holds now. */
export interface SimulationInput<T> {
  /** The object as it would be after applying the manifest (defaults applied, uid if it exists). */
  desired: T
  /** Whether the object exists in the cluster. */
  exists: boolean
  /** For a deployment: the MachineSets it controls now; for a set: unused. */
  sets: MachineSetObject[]
  /** Every Machine of the namespace now. */
  machines: MachineObject[]
  /** Base of simulated timestamps (only orders Machines created by the plan). */
  startMs: number
  /** Stop after this many steps (default 500) and report `converged: false`. */
  maxSteps?: number
}

/** Simulates a MachineDeployment rollout to completion. */
export function simulateDeployment(input: SimulationInput<MachineDeploymentObject>): PlanReport {
  const md = structuredClone(input.desired)
  const replacements = previewDeploymentReplacements(
    md,
    input.sets,
    input.machines,
    new Date(input.startMs),
  )
  const world = createWorld(input.sets, input.machines, input.startMs)
  const steps: PlanStep[] = []
  let converged = false
  for (let i = 0; i < (input.maxSteps ?? 500) && !converged; i++) {
    settle(world)
    const plan = planMachineDeployment({
      deployment: md,
      sets: structuredClone(world.sets),
      now: new Date(world.startMs + world.tick * 1000),
    })
    const entries = plan.actions.map((action) => applyDeploymentAction(world, md, action))
    entries.push(
      ...runSetPasses(
        world,
        world.sets.filter((s) => isControlledBy(s, md.metadata.uid)),
      ),
    )
    if (entries.length > 0) steps.push({ entries })
    else converged = true
  }
  return {
    ...report(world, {
      kind: 'MachineDeployment',
      exists: input.exists,
      meta: md.metadata,
      steps,
      converged,
    }),
    replacements,
  }
}

/** Simulates a MachineSet converging (one step: its Machine changes). */
export function simulateMachineSet(input: SimulationInput<MachineSetObject>): PlanReport {
  const set = structuredClone(input.desired)
  const replacements = previewSetReplacements(set, input.machines, new Date(input.startMs))
  const world = createWorld([set], input.machines, input.startMs)
  settle(world)
  const entries = runSetPasses(world, world.sets)
  const steps = entries.length > 0 ? [{ entries }] : []
  return {
    ...report(world, {
      kind: 'MachineSet',
      exists: input.exists,
      meta: set.metadata,
      steps,
      converged: true,
    }),
    replacements,
  }
}

interface Outcome {
  kind: PlanReport['kind']
  exists: boolean
  meta: { name: string; namespace?: string | undefined }
  steps: PlanStep[]
  converged: boolean
}

function report(world: World, outcome: Outcome): PlanReport {
  settle(world)
  const final: FinalSet[] = [...world.sets]
    .sort((a, b) => revisionOf(a) - revisionOf(b) || a.metadata.name.localeCompare(b.metadata.name))
    .map((s) => ({
      set: s.metadata.name,
      replicas: s.spec.replicas ?? 0,
      machines: s.status?.replicas ?? 0,
    }))
  const { kind, exists, meta, steps, converged } = outcome
  return { kind, namespace: meta.namespace ?? '', name: meta.name, exists, steps, final, converged }
}

function applyDeploymentAction(
  world: World,
  md: MachineDeploymentObject,
  action: DeploymentAction,
): PlanEntry {
  const find = (name: string) => world.sets.find((s) => s.metadata.name === name)
  switch (action.type) {
    case 'rollback': {
      const { metadata: _ignored, ...patch } = action.patch ?? { spec: { rollbackTo: null } }
      applyMergePatch(md, patch)
      return { type: 'rollback', revision: action.revision }
    }
    case 'create-set': {
      const set = structuredClone(action.set)
      set.metadata.uid = `planned-${set.metadata.name}`
      set.metadata.generation = 1
      set.metadata.creationTimestamp = nextTimestamp(world)
      world.sets.push(set)
      const replicas = set.spec.replicas ?? 0
      return { type: 'create-set', set: set.metadata.name, revision: revisionOf(set), replicas }
    }
    case 'scale-set': {
      const set = find(action.set.metadata.name)
      const from = set?.spec.replicas ?? 0
      if (set) {
        set.spec.replicas = action.to
        set.metadata.generation = (set.metadata.generation ?? 1) + 1
      }
      return { type: 'scale-set', set: action.set.metadata.name, from, to: action.to }
    }
    case 'patch-set': {
      const set = find(action.set.metadata.name)
      if (set) {
        applyMergePatch(set, action.patch)
        if (action.patch.spec) set.metadata.generation = (set.metadata.generation ?? 1) + 1
      }
      return {
        type: 'update-set',
        set: action.set.metadata.name,
        fields: patchFields(action.patch),
      }
    }
    case 'delete-set': {
      const uid = action.set.metadata.uid
      world.sets = world.sets.filter((s) => s.metadata.name !== action.set.metadata.name)
      // The garbage collector removes what the set still owned (nothing, for a trimmed set).
      world.machines = world.machines.filter((m) => !isControlledBy(m, uid))
      return { type: 'delete-set', set: action.set.metadata.name }
    }
    default: {
      const never: never = action
      throw new Error(`unknown action ${JSON.stringify(never)}`)
    }
  }
}
