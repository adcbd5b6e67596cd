/**
 * @module The adoption planner: from a unit and what is there now, the steps still to take, in
 * the order that keeps one controller in charge of each instance at every moment. Pure: it is
 * asked again after each batch of steps, so a run that died anywhere resumes from what it finds.
 *
 * 1. pause every source object (top-down); nothing else until all are paused;
 * 2. create the MachineClass and the MachineDeployment (paused: with no set it makes none);
 * 3. create each Machine with the instance's providerID (its controller launches nothing), then
 *    tag the instance with the Machine's UID (the index notices and the orphan sweep use);
 * 4. create the MachineSet once every Machine exists (it adopts them: nothing to create);
 * 5. unpause the deployment (its set is current: the hash is computed by its own planner);
 * 6. release each source Machine once its machine-api Machine is Running on the same Node
 *    (strip finalizers, delete: nothing terminates), then the source sets, bottom-up.
 */

import { tagKeys } from '../providers/aws/tags'
import { isPaused } from '../reconcile/machine-deployment/autoscaler-keys'
import type { MachineDeploymentObject } from '../reconcile/machine-deployment/machine-sets'
import { planMachineDeployment } from '../reconcile/machine-deployment/plan'
import type { MachineObject, MachineSetObject } from '../reconcile/machine-set/types'
import type { ClassLike } from '../reconcile/shared/class-content'
import { type AdoptionProblem, blocking } from './problems'
import type { SourceRef } from './source-types'
import { sourceKey, type TargetState } from './state'
import { machineManifest } from './targets'
import { ADOPTED_FROM, type AdoptedMachine, type AdoptionUnit } from './unit'

/** One step; execute.ts switches on `type`. */
export type AdoptStep =
  | { type: 'pause'; ref: SourceRef }
  | { type: 'create'; object: Record<string, unknown> }
  | { type: 'tag-instance'; instanceId: string; tags: Record<string, string> }
  | { type: 'unpause-deployment'; name: string }
  | { type: 'release'; ref: SourceRef }

/** The next steps, or why none can be taken yet. */
export interface AdoptionPlan {
  steps: AdoptStep[]
  /** Adopted Machines not Running on their Node yet. */
  waiting: string[]
  /** A Machine that failed instead: the adoption cannot finish (roll back). */
  failed?: string | undefined
  done: boolean
}

/** What blocks the unit on the target side: objects, instances or Nodes someone else holds. */
export function targetProblems(unit: AdoptionUnit, state: TargetState): AdoptionProblem[] {
  const problems: AdoptionProblem[] = []
  const ns = unit.namespace
  const foreign = (obj: { metadata?: { annotations?: Record<string, string> } } | undefined) =>
    obj !== undefined && obj.metadata?.annotations?.[ADOPTED_FROM] !== unit.title
  const check = (
    kind: string,
    obj: { metadata?: { name?: string; annotations?: Record<string, string> } } | undefined,
  ) => {
    if (foreign(obj)) {
      problems.push(
        blocking(
          `${kind}.machine-api.dev/${ns}/${obj?.metadata?.name ?? ''}`,
          'metadata.name',
          `already exists and was not made by adopting ${unit.title}`,
        ),
      )
    }
  }
  check('MachineClass', state.machineClass)
  check('MachineDeployment', state.deployment)
  check('MachineSet', state.set)
  for (const adopted of unit.machines) {
    const existing = state.machines.get(adopted.name)
    check('Machine', existing)
    const owner = state.instanceOwners.get(adopted.instance.id)
    const mine = existing && !foreign(existing) ? existing.metadata.uid : undefined
    if (owner?.uid && owner.uid !== mine) {
      problems.push(
        blocking(
          `instance ${adopted.instance.id}`,
          `tags.${tagKeys.machineUid}`,
          `is owned by machine-api Machine ${owner.namespace ?? '?'}/${owner.name ?? '?'}`,
        ),
      )
    }
    const link = state.nodes.get(adopted.nodeName)?.linkedMachine
    if (link && link !== `${ns}/${adopted.name}`) {
      problems.push(
        blocking(
          `Node/${adopted.nodeName}`,
          'metadata.annotations',
          `is linked to machine-api Machine ${link}`,
        ),
      )
    }
  }
  return problems
}

/** The set that holds the unit's Machines: the standalone one, or the deployment's current one. */
export function setOf(unit: AdoptionUnit, state: TargetState): MachineSetObject | undefined {
  if (unit.set) return (state.set ?? unit.set) as unknown as MachineSetObject
  if (!unit.deployment || !state.deployment || !state.machineClass) return undefined
  const md = state.deployment
  const unpaused: MachineDeploymentObject = { ...md, spec: { ...md.spec, paused: false } }
  const plan = planMachineDeployment({
    deployment: unpaused,
    sets: [],
    machineClass: state.machineClass as ClassLike,
    now: new Date(0),
  })
  const created = plan.actions.find((a) => a.type === 'create-set')
  if (created?.type !== 'create-set') return undefined
  const annotations = { ...created.set.metadata.annotations, [ADOPTED_FROM]: unit.title }
  return {
    ...created.set,
    metadata: { ...created.set.metadata, annotations },
    spec: { ...created.set.spec, replicas: md.spec.replicas ?? 0 },
  }
}

function isRunningOn(machine: MachineObject | undefined, nodeName: string): boolean {
  return machine?.status?.phase === 'Running' && machine.status.nodeRef?.name === nodeName
}

/** The steps still to take for `unit`, given `state`. */
export function planAdoption(unit: AdoptionUnit, state: TargetState): AdoptionPlan {
  const none = { waiting: [], done: false }
  const source = (ref: SourceRef) => state.sources.get(sourceKey(ref))
  const unpaused = unit.pause.filter((ref) => {
    const now = source(ref)
    return now?.present === true && !now.paused
  })
  if (unpaused.length > 0)
    return { ...none, steps: unpaused.map((ref) => ({ type: 'pause', ref })) }

  const creates: AdoptStep[] = []
  if (unit.machineClass && !state.machineClass)
    creates.push({ type: 'create', object: unit.machineClass })
  if (unit.deployment && !state.deployment)
    creates.push({ type: 'create', object: unit.deployment })
  if (creates.length > 0) return { ...none, steps: creates }

  const set = setOf(unit, state)
  const steps: AdoptStep[] = []
  for (const adopted of unit.machines) {
    const existing = state.machines.get(adopted.name)
    if (!existing) {
      // A released source Machine with no machine-api Machine cannot happen: release comes last.
      steps.push({
        type: 'create',
        object: machineManifest(adopted, set, unit.title, unit.namespace) as unknown as Record<
          string,
          unknown
        >,
      })
      continue
    }
    const owner = state.instanceOwners.get(adopted.instance.id)
    if (owner?.uid !== existing.metadata.uid) {
      steps.push({
        type: 'tag-instance',
        instanceId: adopted.instance.id,
        tags: ownershipTags(existing, unit.namespace),
      })
    }
  }
  if (steps.length > 0) return { ...none, steps }
  if (set && (unit.set || unit.deployment) && !state.set) {
    return {
      ...none,
      steps: [{ type: 'create', object: set as unknown as Record<string, unknown> }],
    }
  }
  if (state.deployment && isPaused(state.deployment)) {
    return {
      ...none,
      steps: [{ type: 'unpause-deployment', name: state.deployment.metadata.name }],
    }
  }

  const waiting: string[] = []
  let failed: string | undefined
  const releases: AdoptStep[] = []
  for (const adopted of unit.machines) {
    const machine = state.machines.get(adopted.name)
    if (machine?.status?.phase === 'Failed') {
      failed =
        `Machine ${unit.namespace}/${adopted.name} is Failed: ${machine.status.failureReason ?? ''} ${machine.status.failureMessage ?? ''}`.trim()
    }
    if (!isRunningOn(machine, adopted.nodeName)) {
      waiting.push(adopted.name)
      continue
    }
    releases.push(...releaseSteps(adopted, state))
  }
  if (failed) return { steps: [], waiting, failed, done: false }
  if (releases.length > 0) return { steps: releases, waiting, done: false }
  if (waiting.length > 0) return { steps: [], waiting, done: false }
  const rest = unit.releaseAfter.filter((ref) => source(ref)?.present)
  if (rest.length > 0)
    return { steps: rest.map((ref) => ({ type: 'release', ref })), waiting, done: false }
  return { steps: [], waiting, done: true }
}

function releaseSteps(adopted: AdoptedMachine, state: TargetState): AdoptStep[] {
  return adopted.release
    .filter((ref) => state.sources.get(sourceKey(ref))?.present)
    .map((ref) => ({ type: 'release', ref }))
}

/** The tags that make the instance the Machine's (the same keys its launches carry). */
export function ownershipTags(machine: MachineObject, namespace: string): Record<string, string> {
  return {
    [tagKeys.machineUid]: machine.metadata.uid ?? '',
    [tagKeys.machineName]: machine.metadata.name,
    [tagKeys.machineNamespace]: namespace,
  }
}
