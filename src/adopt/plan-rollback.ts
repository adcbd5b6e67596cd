/**
 * @module Going back before the source is released: the machine-api objects go without touching
 * an instance, and the source is unpaused. Pure, asked again after each batch like plan.ts.
 *
 * 1. pause the deployment and stop the set creating Machines;
 * 2. delete the deployment and the set, orphaning what they own;
 * 3. per Machine: remove the machine-api tags from its instance, then remove the Machine itself
 *    without its deletion sequence (finalizer off, then a delete conditional on that very
 *    resourceVersion, so a controller that put the finalizer back makes it fail and retry);
 * 4. delete the class; unpause the source.
 * A source Machine already released cannot be restored by machine-api: rollback refuses.
 */
import { ANNOTATIONS } from '../api/group'
import { tagKeys } from '../providers/aws/tags'
import { isPaused } from '../reconcile/machine-deployment/autoscaler-keys'
import { type AdoptionProblem, blocking } from './problems'
import type { SourceRef } from './source-types'
import { describeRef } from './source-types'
import { sourceKey, type TargetState } from './state'
import { ADOPTED_FROM, type AdoptionUnit } from './unit'

/** One rollback step; execute.ts switches on `type`. */
export type RollbackStep =
  | { type: 'pause-deployment'; name: string }
  | { type: 'disable-set-create'; name: string }
  | {
      type: 'delete-orphaning'
      kind: 'MachineDeployment' | 'MachineSet' | 'MachineClass'
      name: string
    }
  | { type: 'untag-instance'; instanceId: string }
  | { type: 'remove-machine'; name: string }
  | { type: 'unpause'; ref: SourceRef }

/** Source objects already released: rollback cannot bring them back. */
export function rollbackProblems(unit: AdoptionUnit, state: TargetState): AdoptionProblem[] {
  return unit.machines.flatMap((m) =>
    m.release
      .filter((ref) => state.sources.get(sourceKey(ref))?.present === false)
      .map((ref) =>
        blocking(
          describeRef(ref),
          'metadata',
          `was released to machine-api Machine ${unit.namespace}/${m.name}: recreate it from your manifests to go back`,
        ),
      ),
  )
}

const ours = (
  unit: AdoptionUnit,
  obj: { metadata?: { annotations?: Record<string, string> } } | undefined,
) => obj?.metadata?.annotations?.[ADOPTED_FROM] === unit.title

/** The rollback steps still to take. */
export function planRollback(
  unit: AdoptionUnit,
  state: TargetState,
): { steps: RollbackStep[]; done: boolean } {
  const md = ours(unit, state.deployment) ? state.deployment : undefined
  const set = ours(unit, state.set) ? state.set : undefined
  const first: RollbackStep[] = []
  if (md && !isPaused(md)) first.push({ type: 'pause-deployment', name: md.metadata.name })
  if (set && set.metadata.annotations?.[ANNOTATIONS.disableMachineCreate] !== 'true') {
    first.push({ type: 'disable-set-create', name: set.metadata.name })
  }
  if (first.length > 0) return { steps: first, done: false }
  if (md)
    return {
      steps: [{ type: 'delete-orphaning', kind: 'MachineDeployment', name: md.metadata.name }],
      done: false,
    }
  if (set)
    return {
      steps: [{ type: 'delete-orphaning', kind: 'MachineSet', name: set.metadata.name }],
      done: false,
    }
  const steps: RollbackStep[] = []
  for (const adopted of unit.machines) {
    const machine = state.machines.get(adopted.name)
    const owner = state.instanceOwners.get(adopted.instance.id)
    if (owner?.uid && (!machine || owner.uid === machine.metadata.uid)) {
      steps.push({ type: 'untag-instance', instanceId: adopted.instance.id })
    } else if (machine && ours(unit, machine)) {
      steps.push({ type: 'remove-machine', name: adopted.name })
    }
  }
  if (steps.length > 0) return { steps, done: false }
  if (ours(unit, state.machineClass)) {
    const name = state.machineClass?.metadata?.name ?? ''
    return { steps: [{ type: 'delete-orphaning', kind: 'MachineClass', name }], done: false }
  }
  const paused = unit.pause.filter((ref) => state.sources.get(sourceKey(ref))?.paused)
  if (paused.length > 0)
    return { steps: paused.map((ref) => ({ type: 'unpause', ref })), done: false }
  return { steps: [], done: true }
}

/** The machine-api tag keys removed from an instance on rollback. */
export const ownershipTagKeys = [
  tagKeys.machineUid,
  tagKeys.machineName,
  tagKeys.machineNamespace,
  tagKeys.owner,
]
