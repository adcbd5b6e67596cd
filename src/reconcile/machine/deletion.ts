/**
 * @module The Machine planner while the Machine is being deleted. `nextDeletionStep` is the
 * deletion sequence as a pure function returning the executor's own action, or the wait that holds
 * the Machine: pre-drain hooks -> cordon and drain -> volume detach -> pre-terminate hooks ->
 * delete the instance and wait until it is gone -> delete the Node (unless its deletion already
 * started) -> remove the finalizer. `planDeletionPass` puts it in front of what a deleting
 * Machine needs first: the finalizer, a usable provider, a failed provider call
 * (provider-failure.ts), a termination still going, one last Node lookup; and after it, a create
 * claim that still holds the finalizer (`createClaimHold`).
 */
import { ANNOTATIONS } from '../../api/group'
import { parseDurationMs } from '../../api/shared/duration'
import type { KubeObject } from '../../kube/resource'
import { findCondition } from '../shared/conditions'
import { interruptionOf } from '../shared/interruption'
import {
  hasFinalizer,
  type MachineAction,
  type MachinePlan,
  type MachinePlanSettings,
  timer,
  warning,
} from './actions'
import { configurationRetryMs } from './machine-deps'
import {
  type DeletionTimers,
  type DrainSkipReason,
  type MachineObservation,
  noDeletionFacts,
  type Problem,
  type VolumeWaitSkipReason,
} from './observation'
import { providerFailurePlan } from './provider-failure'

/** Annotation prefixes other controllers use to hold a Machine in a deletion stage. */
export const preDrainHookPrefix = 'pre-drain.delete.hook.machine-api.dev'
export const preTerminateHookPrefix = 'pre-terminate.delete.hook.machine-api.dev'
/** Annotations that skip a stage for one Machine. */
export const excludeDrainAnnotation = ANNOTATIONS.excludeNodeDraining
export const excludeVolumeWaitAnnotation = ANNOTATIONS.excludeWaitForNodeVolumeDetach

/** What the deletion sequence decides on. */
export interface DeletionObservation {
  annotations: Record<string, string>
  /** Hook names from `spec.lifecycleHooks` (annotation hooks are found in `annotations`). */
  specHooks?: { preDrain: string[]; preTerminate: string[] }
  timers: DeletionTimers
  /** 0 or undefined: no limit. */
  timeoutsMs: { nodeDrain?: number; nodeVolumeDetach?: number; nodeDeletion?: number }
  /** The Machine's deletionTimestamp: nodeDeletionTimeout counts from it. */
  deletedAt?: string
  /** An earlier pass finished (or skipped) the drain: the Drained condition is True. */
  drained: boolean
  /** A drain pass ran in this reconcile and did not finish: its progress message. */
  drainProgress?: string | undefined
  /** An earlier pass finished (or skipped) the volume wait. */
  volumesDetached: boolean
  /**
   * The linked Node, if it still exists. `deleting`: its deletion already started (someone
   * deleted it, or it was the instance itself, as with kwok), so it needs no delete of ours.
   */
  node?: { name: string; unreachable: boolean; attachedVolumes: string[]; deleting?: boolean }
  /** The provider reports no instance for this Machine (deleted, or never created). */
  instanceGone: boolean
  /**
   * When EC2 said the instance goes (ms since the epoch; shared/interruption.ts): the drain and
   * the volume wait stop there, so the instance is terminated by us rather than under the pods.
   */
  interruptionDeadlineMs?: number | undefined
}

/** The next step: an action, or a wait with the Deleting condition's reason. */
export interface DeletionStep {
  next: MachineAction | { wait: Problem; on: 'hook' | 'stage' }
  /** Timers to record in status.deletion (only ones not yet set). */
  startTimers: Partial<DeletionTimers>
  /** When a timeout in play expires, so the reconcile requeues in time. */
  deadlineMs?: number
}

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
    // An instance may exist that no provider here can remove: wait rather than leak it. One
    // Event when the deletion starts waiting for it, as for a provider problem outside deletion.
    const deleting = { reason: 'ProviderUnavailable', message: obs.providerProblem.message }
    const previous = findCondition(machine.status?.conditions, 'Deleting')
    const events = previous?.reason === deleting.reason ? [] : [warning(deleting)]
    return { deleting, events, requeueAfterMs: configurationRetryMs }
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
  const step = nextDeletionStep(deletionObservation(obs, now), now)
  const startTimers = step.startTimers as Record<string, string>
  const hold = 'type' in step.next ? createClaimHold(step.next, obs, now, settings) : undefined
  if (hold && 'action' in hold) return { action: hold.action, events: [], startTimers }
  if (hold) return { deleting: hold.wait, events: [], startTimers, ...timer(hold.waitMs) }
  if (!('wait' in step.next)) return { action: step.next, events: [], startTimers }
  const waitMs =
    step.next.on === 'hook'
      ? configurationRetryMs
      : step.deadlineMs === undefined
        ? settings.deletionRetryMs
        : Math.min(settings.deletionRetryMs, Math.max(0, step.deadlineMs - now.getTime()))
  return { deleting: step.next.wait, events: [], startTimers, ...timer(waitMs) }
}

/**
 * How long a deletion that took over a dead create's claim keeps looking for that create's
 * instance. Every launch of the dead create was sent before the takeover, so this needs to cover
 * only EC2's lag between a launch and its lookups by tag and ClientToken: AWS gives no figure
 * ("typically seconds"); the fault proxy's eventual-consistency mode tests it with 5 s.
 */
export const takenClaimHoldMs = 30_000

/**
 * Whether a create claim keeps the finalizer on although no instance was found. A create that
 * was in flight when the Machine was deleted may launch after the lookups ran, or its instance may
 * not show in EC2's lookups yet (eventual consistency): removing the finalizer then leaks it,
 * since nothing else would ever delete it (issue 42). A live holder's claim holds until it runs
 * out (the create's launches are sent within the provider call timeout; the claim lasts a quarter
 * longer). A dead holder launches nothing more, so the deletion takes its claim over (one Machine
 * write) and holds `takenClaimHoldMs` from then; the passes meanwhile repeat the tag and
 * ClientToken lookups, and an instance they find is terminated at once. A create that finished
 * after the deletion began records its instance with such a claim, which ends once that instance
 * is seen terminating. An unreadable claim time holds nothing (as for creates, plan.ts).
 */
export function createClaimHold(
  next: MachineAction,
  obs: Pick<MachineObservation, 'claim' | 'machine' | 'instance'>,
  now: Date,
  settings: Pick<MachinePlanSettings, 'claimTtlMs' | 'deletionRetryMs'>,
): { wait: Problem; waitMs: number } | { action: MachineAction } | undefined {
  if (next.type !== 'remove-finalizer' || !obs.claim) return undefined
  const { claim } = obs
  if (claim.forDeletion && recordedInstanceTerminated(obs)) return undefined
  if (claim.holderDead && !claim.forDeletion) {
    return { action: { type: 'claim-create', forDeletion: true } }
  }
  const holdMs = claim.forDeletion ? takenClaimHoldMs : settings.claimTtlMs
  const leftMs = claim.at.getTime() + holdMs - now.getTime()
  if (!Number.isFinite(leftMs) || leftMs <= 0) return undefined
  const message = claim.forDeletion
    ? 'The instance was being created by a worker that has since died when the Machine was ' +
      `deleted; looking for it until ${new Date(claim.at.getTime() + holdMs).toISOString()}`
    : 'The instance was being created (by another reconcile) when the Machine was deleted; ' +
      `looking for it until the create claim of ${claim.at.toISOString()} runs out`
  return {
    wait: { reason: 'WaitingForCreateClaim', message },
    waitMs: Math.min(settings.deletionRetryMs, leftMs),
  }
}

/**
 * Whether the instance the create recorded was seen terminating by this deletion: an earlier pass
 * waited for its termination (the Deleting reason it wrote; the provider said it was going, so it
 * existed). A delete answered "not found" proves nothing while EC2 may not show the instance yet.
 * A create launches one instance, and with its id recorded (execute.ts `recordProviderId`), that
 * one is the instance the claim was held for: nothing is left to look for.
 */
function recordedInstanceTerminated(obs: Pick<MachineObservation, 'machine' | 'instance'>) {
  if (!obs.machine.spec.providerID || obs.instance.state !== 'absent') return false
  const deleting = findCondition(obs.machine.status?.conditions, 'Deleting')
  return deleting?.reason === 'WaitingForInfrastructureDeletion'
}

/** Decides the next deletion step. Timers start the first time their stage is reached. */
export function nextDeletionStep(obs: DeletionObservation, now: Date): DeletionStep {
  const stamp = now.toISOString()
  const { timers, timeoutsMs } = obs
  const act = (action: MachineAction): DeletionStep => ({ next: action, startTimers: {} })

  // Hooks and the node stages only matter while the instance still runs workloads.
  if (!obs.instanceGone) {
    const preDrain = hooks(obs.annotations, preDrainHookPrefix, obs.specHooks?.preDrain)
    if (preDrain.length > 0) {
      return {
        next: { wait: hookWait('WaitingForPreDrainHook', preDrain), on: 'hook' },
        startTimers: startOnce(timers, 'waitForPreDrainHookStartTime', stamp),
      }
    }

    if (!obs.drained) {
      const skip = drainSkipReason(obs, now)
      if (skip) return act({ type: 'skip-drain', reason: skip })
      const node = obs.node as NonNullable<DeletionObservation['node']>
      const due = earliest(
        deadline(timers.nodeDrainStartTime, timeoutsMs.nodeDrain, now),
        obs.interruptionDeadlineMs,
      )
      return {
        // One drain pass per reconcile: evictions take time; look again later.
        next:
          obs.drainProgress === undefined
            ? { type: 'drain-node', nodeName: node.name, nodeUnreachable: node.unreachable }
            : {
                wait: {
                  reason: 'DrainingNode',
                  message: `Draining Node ${node.name}: ${obs.drainProgress}`,
                },
                on: 'stage',
              },
        startTimers: startOnce(timers, 'nodeDrainStartTime', stamp),
        ...(due === undefined ? {} : { deadlineMs: due }),
      }
    }

    if (!obs.volumesDetached) {
      const skip = volumeWaitSkipReason(obs, now)
      if (skip) return act({ type: 'skip-volume-wait', reason: skip })
      const volumes = obs.node?.attachedVolumes ?? []
      if (volumes.length > 0) {
        const start = timers.waitForNodeVolumeDetachStartTime
        const due = earliest(
          deadline(start, timeoutsMs.nodeVolumeDetach, now),
          obs.interruptionDeadlineMs,
        )
        const message = `Waiting for volumes to detach: ${volumes.slice(0, 5).join(', ')}`
        return {
          next: { wait: { reason: 'WaitingForVolumeDetach', message }, on: 'stage' },
          startTimers: startOnce(timers, 'waitForNodeVolumeDetachStartTime', stamp),
          ...(due === undefined ? {} : { deadlineMs: due }),
        }
      }
    }

    const preTerminate = hooks(obs.annotations, preTerminateHookPrefix, obs.specHooks?.preTerminate)
    if (preTerminate.length > 0) {
      return {
        next: { wait: hookWait('WaitingForPreTerminateHook', preTerminate), on: 'hook' },
        startTimers: startOnce(timers, 'waitForPreTerminateHookStartTime', stamp),
      }
    }
    return act({ type: 'terminate-instance' })
  }

  if (obs.node && !obs.node.deleting) {
    const giveUpOnFailure = nodeDeletionTimedOut(
      obs.deletedAt ?? stamp,
      timeoutsMs.nodeDeletion ?? 0,
      now,
    )
    return act({ type: 'delete-node', nodeName: obs.node.name, giveUpOnFailure })
  }
  return act({ type: 'remove-finalizer' })
}

/** The deletion sequence's inputs, from the observation. */
function deletionObservation(obs: MachineObservation, now: Date): DeletionObservation {
  const { machine } = obs
  const facts = obs.deletion ?? noDeletionFacts
  const node = obs.node.state === 'found' ? obs.node.node : undefined
  const timeout = (value: string | undefined) => (value ? (parseDurationMs(value) ?? 0) : 0)
  const instanceGone =
    obs.instance.state === 'absent' ||
    (obs.providerProblem !== undefined && !machine.spec.providerID)
  const deletedAt = (machine as KubeObject).metadata?.deletionTimestamp
  // Any notice with a deadline bounds the drain, whatever made the Machine go.
  const interruption = interruptionOf(machine, 'Replace', now)
  return {
    interruptionDeadlineMs: interruption?.drainDeadlineMs,
    annotations: machine.metadata.annotations ?? {},
    specHooks: {
      preDrain: (machine.spec.lifecycleHooks?.preDrain ?? []).map((h) => h.name),
      preTerminate: (machine.spec.lifecycleHooks?.preTerminate ?? []).map((h) => h.name),
    },
    timers: { ...machine.status?.deletion, ...facts.startedTimers },
    timeoutsMs: {
      nodeDrain: timeout(machine.spec.nodeDrainTimeout),
      nodeVolumeDetach: timeout(machine.spec.nodeVolumeDetachTimeout),
      nodeDeletion: timeout(machine.spec.nodeDeletionTimeout),
    },
    ...(deletedAt ? { deletedAt: String(deletedAt) } : {}),
    drained: facts.drained,
    drainProgress: facts.drainProgress,
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

function hookWait(reason: string, names: string[]): Problem {
  return { reason, message: `Waiting for lifecycle hooks to be removed: ${names.join(', ')}` }
}

function hooks(
  annotations: Record<string, string>,
  prefix: string,
  specHooks: string[] = [],
): string[] {
  const fromAnnotations = Object.keys(annotations).filter((key) => key.startsWith(prefix))
  return [...specHooks, ...fromAnnotations].sort()
}

/** The timer `name` at `stamp`, unless it already runs (a stage's timer starts only once). */
function startOnce(
  timers: DeletionTimers,
  name: keyof DeletionTimers,
  stamp: string,
): Partial<DeletionTimers> {
  return timers[name] ? {} : { [name]: stamp }
}

function expired(startTime: string | undefined, timeoutMs: number | undefined, now: Date): boolean {
  if (!startTime || !timeoutMs) return false
  return now.getTime() - new Date(startTime).getTime() >= timeoutMs
}

function deadline(
  startTime: string | undefined,
  timeoutMs: number | undefined,
  now: Date,
): number | undefined {
  if (!timeoutMs) return undefined
  const start = startTime ? new Date(startTime).getTime() : now.getTime()
  return start + timeoutMs
}

function earliest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b
  return b === undefined ? a : Math.min(a, b)
}

function passed(at: number | undefined, now: Date): boolean {
  return at !== undefined && !Number.isNaN(at) && now.getTime() >= at
}

function drainSkipReason(obs: DeletionObservation, now: Date): DrainSkipReason | undefined {
  if (!obs.node) return 'NodeNotFound'
  if (excludeDrainAnnotation in obs.annotations) return 'DrainExcluded'
  if (passed(obs.interruptionDeadlineMs, now)) return 'InterruptionDeadline'
  if (expired(obs.timers.nodeDrainStartTime, obs.timeoutsMs.nodeDrain, now)) {
    return 'NodeDrainTimeout'
  }
  return undefined
}

function volumeWaitSkipReason(
  obs: DeletionObservation,
  now: Date,
): VolumeWaitSkipReason | undefined {
  if (!obs.node) return 'NodeNotFound'
  // An unreachable kubelet never reports volumes as detached; waiting would only burn the timeout.
  if (obs.node.unreachable) return 'NodeUnreachable'
  if (excludeVolumeWaitAnnotation in obs.annotations) return 'VolumeWaitExcluded'
  if (passed(obs.interruptionDeadlineMs, now)) return 'InterruptionDeadline'
  if (expired(obs.timers.waitForNodeVolumeDetachStartTime, obs.timeoutsMs.nodeVolumeDetach, now)) {
    return 'VolumeDetachTimeout'
  }
  return undefined
}

/**
 * Whether a failing Node deletion may be given up: `nodeDeletionTimeout` (0 = never) counts from
 * the Machine's deletionTimestamp, as in Cluster API, so a Node the apiserver refuses to delete
 * cannot hold the Machine forever.
 */
export function nodeDeletionTimedOut(
  deletionTimestamp: string,
  timeoutMs: number,
  now: Date,
): boolean {
  return timeoutMs > 0 && now.getTime() - new Date(deletionTimestamp).getTime() >= timeoutMs
}
