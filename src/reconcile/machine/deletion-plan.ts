/**
 * @module The Machine deletion sequence as a pure function: given what was observed, which single
 * step comes next. Order: pre-drain hooks -> cordon and drain -> volume detach -> pre-terminate
 * hooks -> delete the instance and wait until it is gone -> delete the Node (unless its deletion
 * already started) -> remove the finalizer.
 * The reconcile runs that step, records its outcome, and asks again.
 */
import { ANNOTATIONS } from '../../api/group'

/** Annotation prefixes other controllers use to hold a Machine in a deletion stage. */
export const preDrainHookPrefix = 'pre-drain.delete.hook.machine-api.dev'
export const preTerminateHookPrefix = 'pre-terminate.delete.hook.machine-api.dev'
/** Annotations that skip a stage for one Machine. */
export const excludeDrainAnnotation = ANNOTATIONS.excludeNodeDraining
export const excludeVolumeWaitAnnotation = ANNOTATIONS.excludeWaitForNodeVolumeDetach

/** When each waiting stage started (status.deletion), so timeouts survive restarts. */
export interface DeletionTimers {
  waitForPreDrainHookStartTime?: string
  nodeDrainStartTime?: string
  waitForNodeVolumeDetachStartTime?: string
  waitForPreTerminateHookStartTime?: string
}

export interface DeletionObservation {
  annotations: Record<string, string>
  /** Hook names from `spec.lifecycleHooks` (annotation hooks are found in `annotations`). */
  specHooks?: { preDrain: string[]; preTerminate: string[] }
  timers: DeletionTimers
  /** 0 or undefined: no limit. */
  timeoutsMs: { nodeDrain?: number; nodeVolumeDetach?: number }
  /** An earlier pass finished (or skipped) the drain: the Drained condition is True. */
  drained: boolean
  /** An earlier pass finished (or skipped) the volume wait. */
  volumesDetached: boolean
  /**
   * The linked Node, if it still exists. `deleting`: its deletion already started (someone
   * deleted it, or it was the instance itself, as with kwok), so it needs no delete of ours.
   */
  node?: { name: string; unreachable: boolean; attachedVolumes: string[]; deleting?: boolean }
  /** The provider reports no instance for this Machine (deleted, or never created). */
  instanceGone: boolean
}

export type DeletionStep =
  | { step: 'wait-pre-drain-hook'; hooks: string[] }
  | { step: 'drain'; nodeName: string; nodeUnreachable: boolean }
  /** Drain ended without completing (timeout, exclusion, no Node); `reason` is recorded. */
  | { step: 'skip-drain'; reason: 'NodeDrainTimeout' | 'DrainExcluded' | 'NodeNotFound' }
  | { step: 'wait-volume-detach'; volumes: string[] }
  | {
      step: 'skip-volume-detach'
      reason: 'VolumeDetachTimeout' | 'VolumeWaitExcluded' | 'NodeNotFound' | 'NodeUnreachable'
    }
  | { step: 'wait-pre-terminate-hook'; hooks: string[] }
  | { step: 'delete-instance' }
  | { step: 'delete-node'; nodeName: string }
  | { step: 'remove-finalizer' }

export interface DeletionPlan {
  next: DeletionStep
  /** Timers to record in status.deletion (only ones not yet set). */
  startTimers: Partial<DeletionTimers>
  /** When a timeout in play expires, so the reconcile requeues in time. */
  deadlineMs?: number
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

/** Decides the next deletion step. Timers start the first time their stage is reached. */
export function planDeletion(obs: DeletionObservation, now: Date): DeletionPlan {
  const stamp = now.toISOString()
  const { timers, timeoutsMs } = obs

  // Hooks and the node stages only matter while the instance still runs workloads.
  if (!obs.instanceGone) {
    const preDrain = hooks(obs.annotations, preDrainHookPrefix, obs.specHooks?.preDrain)
    if (preDrain.length > 0) {
      return {
        next: { step: 'wait-pre-drain-hook', hooks: preDrain },
        startTimers: startOnce(timers, 'waitForPreDrainHookStartTime', stamp),
      }
    }

    if (!obs.drained) {
      if (!obs.node)
        return { next: { step: 'skip-drain', reason: 'NodeNotFound' }, startTimers: {} }
      if (excludeDrainAnnotation in obs.annotations) {
        return { next: { step: 'skip-drain', reason: 'DrainExcluded' }, startTimers: {} }
      }
      if (expired(timers.nodeDrainStartTime, timeoutsMs.nodeDrain, now)) {
        return { next: { step: 'skip-drain', reason: 'NodeDrainTimeout' }, startTimers: {} }
      }
      const due = deadline(timers.nodeDrainStartTime, timeoutsMs.nodeDrain, now)
      return {
        next: { step: 'drain', nodeName: obs.node.name, nodeUnreachable: obs.node.unreachable },
        startTimers: startOnce(timers, 'nodeDrainStartTime', stamp),
        ...(due === undefined ? {} : { deadlineMs: due }),
      }
    }

    if (!obs.volumesDetached) {
      const skip = volumeWaitSkipReason(obs, now)
      if (skip) return { next: { step: 'skip-volume-detach', reason: skip }, startTimers: {} }
      const volumes = obs.node?.attachedVolumes ?? []
      if (volumes.length > 0) {
        const due = deadline(
          timers.waitForNodeVolumeDetachStartTime,
          timeoutsMs.nodeVolumeDetach,
          now,
        )
        return {
          next: { step: 'wait-volume-detach', volumes },
          startTimers: startOnce(timers, 'waitForNodeVolumeDetachStartTime', stamp),
          ...(due === undefined ? {} : { deadlineMs: due }),
        }
      }
    }

    const preTerminate = hooks(obs.annotations, preTerminateHookPrefix, obs.specHooks?.preTerminate)
    if (preTerminate.length > 0) {
      return {
        next: { step: 'wait-pre-terminate-hook', hooks: preTerminate },
        startTimers: startOnce(timers, 'waitForPreTerminateHookStartTime', stamp),
      }
    }
    return { next: { step: 'delete-instance' }, startTimers: {} }
  }

  if (obs.node && !obs.node.deleting) {
    return { next: { step: 'delete-node', nodeName: obs.node.name }, startTimers: {} }
  }
  return { next: { step: 'remove-finalizer' }, startTimers: {} }
}

function volumeWaitSkipReason(
  obs: DeletionObservation,
  now: Date,
): 'VolumeDetachTimeout' | 'VolumeWaitExcluded' | 'NodeNotFound' | 'NodeUnreachable' | undefined {
  if (!obs.node) return 'NodeNotFound'
  // An unreachable kubelet never reports volumes as detached; waiting would only burn the timeout.
  if (obs.node.unreachable) return 'NodeUnreachable'
  if (excludeVolumeWaitAnnotation in obs.annotations) return 'VolumeWaitExcluded'
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
