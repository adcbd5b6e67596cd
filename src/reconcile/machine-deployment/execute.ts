/**
 * @module Carries out a MachineDeployment plan: every action is attempted, idempotent, and
 * explained by an Event on the deployment. Errors are collected; the caller writes status and
 * then rethrows the first one.
 */
import { machineApiTypes } from '../../api/resource-types'
import { errorMessage } from '../../errors'
import { hasKubeReason } from '../../kube/errors'
import type { KubeObject } from '../../kube/resource'
import type { ReconcileDeps } from '../runtime/controller'
import { recordEvent } from '../shared/events'
import { type MachineDeploymentObject, revisionOf } from './machine-sets'
import type { DeploymentAction, RolloutNotice } from './plan'

interface Note {
  type: 'Normal' | 'Warning'
  reason: string
  message: string
}

/** Runs `actions` in order (few, and order matters: create before scaling old sets down). */
export async function executeDeploymentActions(
  deps: ReconcileDeps,
  md: MachineDeploymentObject,
  actions: DeploymentAction[],
): Promise<unknown[]> {
  const errors: unknown[] = []
  const notes: Note[] = []
  for (const action of actions) {
    try {
      const note = await run(deps, md, action)
      if (note) notes.push(note)
      if (note && action.type === 'create-set' && action.rollout) {
        notes.push(rolloutNote(action.set, action.rollout))
      }
    } catch (error) {
      errors.push(error)
      notes.push({
        type: 'Warning',
        reason: 'FailedAction',
        message: `${action.type}: ${errorMessage(error)}`,
      })
    }
  }
  for (const note of notes) await recordEvent(deps, md as KubeObject, note)
  return errors
}

async function run(
  deps: ReconcileDeps,
  md: MachineDeploymentObject,
  action: DeploymentAction,
): Promise<Note | undefined> {
  const type = machineApiTypes.machineSet
  const ns = md.metadata.namespace
  switch (action.type) {
    case 'rollback': {
      // Conditional on resourceVersion: a template edited meanwhile wins over the rollback.
      const patch = action.patch ?? { spec: { rollbackTo: null } }
      await deps.kube.mergePatch(
        machineApiTypes.machineDeployment,
        { namespace: ns, name: md.metadata.name },
        { ...patch, metadata: { resourceVersion: md.metadata.resourceVersion } },
      )
      return action.patch
        ? {
            type: 'Normal',
            reason: 'RolledBack',
            message: `Rolled back to revision ${action.revision}`,
          }
        : {
            type: 'Warning',
            reason: 'RollbackRevisionNotFound',
            message: `Revision ${action.revision} not found; rollback request cleared`,
          }
    }
    case 'create-set':
      try {
        await deps.kube.create(type, action.set as KubeObject)
      } catch (error) {
        // The name is the template hash: a concurrent reconcile created the same set.
        if (hasKubeReason(error, 'AlreadyExists')) return undefined
        throw error
      }
      return {
        type: 'Normal',
        reason: 'SuccessfulCreate',
        message: `Created MachineSet ${action.set.metadata.name} (revision ${revisionOf(action.set)}) with ${action.set.spec.replicas} replicas`,
      }
    case 'scale-set': {
      const from = action.set.spec.replicas ?? 0
      await deps.kube.mergePatch(
        type,
        { namespace: ns, name: action.set.metadata.name },
        { spec: { replicas: action.to } },
      )
      return {
        type: 'Normal',
        reason: 'ScalingMachineSet',
        message: `Scaled ${action.to > from ? 'up' : 'down'} MachineSet ${action.set.metadata.name} (revision ${revisionOf(action.set)}) from ${from} to ${action.to}`,
      }
    }
    case 'patch-set':
      await deps.kube.mergePatch(
        type,
        { namespace: ns, name: action.set.metadata.name },
        action.patch,
      )
      return {
        type: 'Normal',
        reason: 'UpdatedInPlace',
        message: `Updated MachineSet ${action.set.metadata.name} in place: ${describePatch(action.patch)}`,
      }
    case 'delete-set':
      await deps.kube
        .delete(
          type,
          { namespace: ns, name: action.set.metadata.name },
          { uid: action.set.metadata.uid ?? '' },
        )
        .catch((error: unknown) => {
          if (!hasKubeReason(error, 'Conflict')) throw error
        })
      return {
        type: 'Normal',
        reason: 'SuccessfulDelete',
        message: `Deleted old MachineSet ${action.set.metadata.name} (revision ${revisionOf(action.set)}): beyond revisionHistoryLimit ${md.spec.revisionHistoryLimit}`,
      }
    default: {
      const never: never = action
      throw new Error(`unknown action ${JSON.stringify(never)}`)
    }
  }
}

function describePatch(patch: Record<string, unknown>): string {
  const spec = (patch.spec ?? {}) as Record<string, unknown>
  const meta = (patch.metadata ?? {}) as {
    annotations?: Record<string, unknown>
    labels?: Record<string, unknown>
  }
  const parts = [
    ...Object.keys(spec).map((k) => `spec.${k}`),
    ...Object.keys(meta.labels ?? {}).map((k) => `label ${k}`),
    ...Object.keys(meta.annotations ?? {}).map((k) => `annotation ${k}`),
  ]
  return parts.join(', ')
}

/**
 * The Event of a rollout's start, reason first (ClassChanged, TemplateChanged, ImageChanged,
 * RolloutAfter): e.g. "Rolling 5 Machines to MachineSet demo-x: MachineClass demo changed
 * (instanceType t3.micro -> m5.xlarge)".
 */
function rolloutNote(set: { metadata: { name: string } }, rollout: RolloutNotice): Note {
  const machines = `${rollout.outdated} Machine${rollout.outdated === 1 ? '' : 's'}`
  const message = rollout.onDelete
    ? `${machines} out of date (OnDelete: each is replaced by MachineSet ${set.metadata.name} once deleted): ${rollout.message}`
    : `Rolling ${machines} to MachineSet ${set.metadata.name}: ${rollout.message}`
  return { type: 'Normal', reason: rollout.reason, message }
}
