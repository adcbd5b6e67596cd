/**
 * @module The Machine planner while the Machine is being deleted: turns the pure deletion sequence
 * (deletion-plan.ts) into the next action, or a wait with the Deleting condition's reason. A
 * provider failure holds deletion with its reason (provider-failure.ts).
 */
import { parseDurationMs } from '../../api/shared/duration'
import type { KubeObject } from '../../kube/resource'
import {
  hasFinalizer,
  type MachineAction,
  type MachinePlan,
  type MachinePlanSettings,
  timer,
} from './actions'
import {
  type DeletionObservation,
  type DeletionStep,
  nodeDeletionTimedOut,
  planDeletion,
} from './deletion-plan'
import { configurationRetryMs } from './machine-deps'
import type { MachineObservation } from './observation'
import { providerFailurePlan } from './provider-failure'

/** Plans the next deletion step for a Machine with a deletionTimestamp. */
export function planDeletionPass(
  obs: MachineObservation,
  now: Date,
  settings: MachinePlanSettings,
): MachinePlan {
  const { machine } = obs
  if (!hasFinalizer(machine as KubeObject)) {
    return obs.released
      ? { deleting: { reason: 'DeletionCompleted', message: 'Machine deleted' }, events: [] }
      : { events: [] }
  }
  const providerID = machine.spec.providerID
  if (obs.providerProblem && providerID) {
    // An instance may exist that no provider here can remove: wait rather than leak it.
    const deleting = { reason: 'ProviderUnavailable', message: obs.providerProblem.message }
    return { deleting, events: [], requeueAfterMs: configurationRetryMs }
  }
  const instance = obs.instance
  if (instance.state === 'failed') return providerFailurePlan(instance.failure, 'deletion')
  if (instance.state === 'terminating') {
    return {
      deleting: {
        reason: 'WaitingForInfrastructureDeletion',
        message: 'Waiting for the instance to terminate',
      },
      events: [],
      requeueAfterMs: instance.requeueAfterMs ?? settings.deletionRetryMs,
    }
  }
  if (obs.node.state === 'not-looked-up' && providerID) {
    // One last lookup, so a Node that joined just before deletion is still drained and removed.
    return { action: { type: 'find-node', providerID }, events: [] }
  }
  const plan = planDeletion(deletionObservation(obs), now)
  const waitMs =
    plan.deadlineMs === undefined
      ? settings.deletionRetryMs
      : Math.min(settings.deletionRetryMs, Math.max(0, plan.deadlineMs - now.getTime()))
  const startTimers = plan.startTimers as Record<string, string>
  const step = stepPlan(obs, plan.next, now)
  if ('action' in step) return { action: step.action, events: [], startTimers }
  return {
    deleting: step.deleting,
    events: [],
    startTimers,
    ...timer(step.hooks ? configurationRetryMs : waitMs),
  }
}

/** The deletion sequence's inputs, from the observation. */
function deletionObservation(obs: MachineObservation): DeletionObservation {
  const { machine } = obs
  const facts = obs.deletion ?? {
    drained: false,
    volumesDetached: false,
    attachedVolumes: [],
    startedTimers: {},
  }
  const node = obs.node.state === 'found' ? obs.node.node : undefined
  const timeout = (value: string | undefined) => (value ? (parseDurationMs(value) ?? 0) : 0)
  const instanceGone =
    obs.instance.state === 'absent' ||
    (obs.providerProblem !== undefined && !machine.spec.providerID)
  return {
    annotations: machine.metadata.annotations ?? {},
    specHooks: {
      preDrain: (machine.spec.lifecycleHooks?.preDrain ?? []).map((h) => h.name),
      preTerminate: (machine.spec.lifecycleHooks?.preTerminate ?? []).map((h) => h.name),
    },
    timers: { ...machine.status?.deletion, ...facts.startedTimers },
    timeoutsMs: {
      nodeDrain: timeout(machine.spec.nodeDrainTimeout),
      nodeVolumeDetach: timeout(machine.spec.nodeVolumeDetachTimeout),
    },
    drained: facts.drained,
    volumesDetached: facts.volumesDetached,
    ...(node
      ? {
          node: {
            name: node.metadata?.name ?? '',
            unreachable:
              node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'Unknown',
            attachedVolumes: facts.attachedVolumes,
            deleting: node.metadata?.deletionTimestamp !== undefined,
          },
        }
      : {}),
    instanceGone,
  }
}

type StepPlan =
  | { action: MachineAction }
  | { deleting: { reason: string; message: string }; hooks?: boolean }

/** The action for a deletion step, or the wait it stands for. */
function stepPlan(obs: MachineObservation, next: DeletionStep, now: Date): StepPlan {
  switch (next.step) {
    case 'wait-pre-drain-hook':
    case 'wait-pre-terminate-hook':
      return {
        deleting: {
          reason:
            next.step === 'wait-pre-drain-hook'
              ? 'WaitingForPreDrainHook'
              : 'WaitingForPreTerminateHook',
          message: `Waiting for lifecycle hooks to be removed: ${next.hooks.join(', ')}`,
        },
        hooks: true,
      }
    case 'drain': {
      const progress = obs.deletion?.drainProgress
      if (progress === undefined) {
        return {
          action: {
            type: 'drain-node',
            nodeName: next.nodeName,
            nodeUnreachable: next.nodeUnreachable,
          },
        }
      }
      // One drain pass per reconcile: evictions take time; look again later.
      return {
        deleting: {
          reason: 'DrainingNode',
          message: `Draining Node ${next.nodeName}: ${progress}`,
        },
      }
    }
    case 'skip-drain':
      return { action: { type: 'skip-drain', reason: next.reason } }
    case 'wait-volume-detach':
      return {
        deleting: {
          reason: 'WaitingForVolumeDetach',
          message: `Waiting for volumes to detach: ${next.volumes.slice(0, 5).join(', ')}`,
        },
      }
    case 'skip-volume-detach':
      return { action: { type: 'skip-volume-wait', reason: next.reason } }
    case 'delete-instance':
      return { action: { type: 'terminate-instance' } }
    case 'delete-node': {
      const machine = obs.machine
      const timeoutMs = parseDurationMs(machine.spec.nodeDeletionTimeout ?? '0') ?? 0
      const deletedAt = String(
        (machine as KubeObject).metadata?.deletionTimestamp ?? now.toISOString(),
      )
      return {
        action: {
          type: 'delete-node',
          nodeName: next.nodeName,
          giveUpOnFailure: nodeDeletionTimedOut(deletedAt, timeoutMs, now),
        },
      }
    }
    case 'remove-finalizer':
      return { action: { type: 'remove-finalizer' } }
  }
}
