import { machineApiTypes } from '../../api/resource-types'
import { parseDurationMs } from '../../api/shared/duration'
import type { Machine } from '../../api/v1beta1/machine'
import { drainNodePass } from '../../drain/drain'
import { drainCompleted, drainMessage } from '../../drain/eviction-result'
import { kubeDrainClient } from '../../drain/kube-drain-client'
import { PermanentError } from '../../errors'
import { coreTypes } from '../../kube/resource'
import type { Actuator, ActuatorContext } from '../../providers/actuator'
import { toActuatorMachine } from '../../providers/machine'
import { hasOwnOutcome } from '../../providers/typed-actuator'
import { findCondition, isConditionTrue } from '../shared/conditions'
import { currentNode, isInstanceGone, observeDeletion } from './deletion-observe'
import { nodeDeletionTimedOut, planDeletion } from './deletion-plan'
import {
  configurationRetryMs,
  defaultDeletionRetryMs,
  type MachineDeps,
  machineFinalizer,
} from './machine-deps'
import { type MachineScope, meta } from './machine-scope'
import { recordEvent } from './provider-context'

const maxStepsPerPass = 12

/** The provider of a deleting Machine, or why there is none. */
export type DeletionProvider = { actuator: Actuator; ctx: ActuatorContext } | { problem: string }

/** Runs deletion steps until one has to wait or the finalizer is gone. */
export async function reconcileDeletion(
  deps: MachineDeps,
  scope: MachineScope,
  provider: DeletionProvider,
): Promise<void> {
  const retryMs = deps.deletionRetryMs ?? defaultDeletionRetryMs
  let drained = isConditionTrue(scope.machine.status?.conditions, 'Drained')
  let volumesDetached = isConditionTrue(scope.machine.status?.conditions, 'VolumesDetached')
  let node = await currentNode(deps, scope)
  let instanceGone = await isInstanceGone(deps, scope, provider)
  if (instanceGone === undefined) return
  for (let step = 0; step < maxStepsPerPass; step++) {
    const observation = await observeDeletion(deps, scope, {
      drained,
      volumesDetached,
      node,
      instanceGone,
    })
    const plan = planDeletion(observation, scope.now)
    Object.assign(scope.deletionTimers, plan.startTimers)
    const next = plan.next
    const waitUntilDeadline = () =>
      scope.requeueAfterMs.push(
        plan.deadlineMs === undefined
          ? retryMs
          : Math.min(retryMs, Math.max(0, plan.deadlineMs - scope.now.getTime())),
      )
    switch (next.step) {
      case 'wait-pre-drain-hook':
      case 'wait-pre-terminate-hook':
        scope.deleting = {
          reason:
            next.step === 'wait-pre-drain-hook'
              ? 'WaitingForPreDrainHook'
              : 'WaitingForPreTerminateHook',
          message: `Waiting for lifecycle hooks to be removed: ${next.hooks.join(', ')}`,
        }
        scope.requeueAfterMs.push(configurationRetryMs)
        return
      case 'drain': {
        const result = await drainNodePass(kubeDrainClient(deps.kube), {
          nodeName: next.nodeName,
          nodeUnreachable: next.nodeUnreachable,
          now: scope.now,
        })
        for (const w of result.warnings) {
          recordEvent(
            deps,
            scope.machine,
            'Warning',
            'EvictedWithWarning',
            `Evicted ${w.pod}: ${w.warning}`,
          )
        }
        if (drainCompleted(result)) {
          drained = true
          setDrained(scope, 'DrainSucceeded', `Node ${next.nodeName} drained`)
          recordEvent(deps, scope.machine, 'Normal', 'NodeDrained', `Drained Node ${next.nodeName}`)
          continue
        }
        const message = drainMessage(result)
        scope.deleting = {
          reason: 'DrainingNode',
          message: `Draining Node ${next.nodeName}: ${message}`,
        }
        scope.extraConditions.push({
          type: 'Drained',
          status: 'False',
          reason: 'Draining',
          message,
        })
        waitUntilDeadline()
        return
      }
      case 'skip-drain':
        drained = true
        setDrained(scope, next.reason, skipDrainMessage(next.reason))
        if (next.reason === 'NodeDrainTimeout') {
          recordEvent(
            deps,
            scope.machine,
            'Warning',
            'NodeDrainTimeout',
            skipDrainMessage(next.reason),
          )
        }
        continue
      case 'wait-volume-detach':
        scope.deleting = {
          reason: 'WaitingForVolumeDetach',
          message: `Waiting for volumes to detach: ${next.volumes.slice(0, 5).join(', ')}`,
        }
        waitUntilDeadline()
        return
      case 'skip-volume-detach':
        volumesDetached = true
        scope.extraConditions.push({
          type: 'VolumesDetached',
          status: 'True',
          reason: next.reason,
          message: '',
        })
        continue
      case 'delete-instance': {
        if ('problem' in provider) throw new Error(provider.problem)
        const result = await provider.actuator
          .delete(provider.ctx, toActuatorMachine(scope.machine))
          .catch((error: unknown) => {
            if (!deletionBlocked(deps, scope, error)) throw error
            return undefined
          })
        if (!result) return
        if (result.done) {
          instanceGone = true
          continue
        }
        scope.deleting = {
          reason: 'WaitingForInfrastructureDeletion',
          message: 'Waiting for the instance to terminate',
        }
        scope.requeueAfterMs.push(result.requeueAfterMs ?? retryMs)
        return
      }
      case 'delete-node': {
        const ok = await deleteNode(deps, scope, next.nodeName)
        if (!ok) return
        node = undefined
        continue
      }
      case 'remove-finalizer':
        await removeFinalizer(deps, scope)
        return
    }
  }
  scope.requeueAfterMs.push(0)
}

/**
 * Records a provider failure that holds up deletion (true), or returns false for anything else.
 * The Deleting condition carries its reason; a transient failure is retried after the provider's
 * delay, an invalid configuration (e.g. revoked credentials) is re-checked slowly, never hot.
 */
export function deletionBlocked(deps: MachineDeps, scope: MachineScope, error: unknown): boolean {
  if (!hasOwnOutcome(error)) return false
  const previous = findCondition(scope.machine.status?.conditions, 'Deleting')
  scope.deleting = { reason: error.reason, message: error.message }
  scope.requeueAfterMs.push(
    error instanceof PermanentError ? configurationRetryMs : (error.retryAfterMs ?? 0),
  )
  if (previous?.reason !== error.reason) {
    recordEvent(deps, scope.machine, 'Warning', error.reason, error.message)
  }
  return true
}

function setDrained(scope: MachineScope, reason: string, message: string): void {
  scope.extraConditions.push({ type: 'Drained', status: 'True', reason, message })
}

function skipDrainMessage(reason: string): string {
  switch (reason) {
    case 'NodeDrainTimeout':
      return 'Drain did not finish within nodeDrainTimeout; deletion continues without it'
    case 'DrainExcluded':
      return 'Drain skipped: the Machine is annotated to exclude draining'
    default:
      return 'Drain skipped: the Machine has no Node'
  }
}

/** Deletes the Node; true when it is gone or nodeDeletionTimeout allows giving up. */
async function deleteNode(
  deps: MachineDeps,
  scope: MachineScope,
  nodeName: string,
): Promise<boolean> {
  try {
    await deps.kube.delete(coreTypes.node, { name: nodeName })
    recordEvent(deps, scope.machine, 'Normal', 'NodeDeleted', `Deleted Node ${nodeName}`)
    return true
  } catch (error) {
    const timeoutMs = parseDurationMs(scope.machine.spec.nodeDeletionTimeout ?? '0') ?? 0
    const deletedAt = String(meta(scope.machine).deletionTimestamp ?? scope.now.toISOString())
    if (!nodeDeletionTimedOut(deletedAt, timeoutMs, scope.now)) throw error
    recordEvent(
      deps,
      scope.machine,
      'Warning',
      'NodeDeletionTimeout',
      `Could not delete Node ${nodeName} within nodeDeletionTimeout; leaving it: ${String(error)}`,
    )
    return true
  }
}

async function removeFinalizer(deps: MachineDeps, scope: MachineScope): Promise<void> {
  const m = meta(scope.machine)
  const finalizers = (m.finalizers ?? []).filter((f) => f !== machineFinalizer)
  scope.machine = await deps.kube.mergePatch<Machine>(
    machineApiTypes.machine,
    { namespace: m.namespace, name: m.name ?? '' },
    { metadata: { finalizers, resourceVersion: m.resourceVersion } },
  )
  scope.deleting = { reason: 'DeletionCompleted', message: 'Machine deleted' }
}
