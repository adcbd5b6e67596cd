/**
 * @module The Machine planner's vocabulary: the actions it returns (data the executor carries out,
 * one at a time, reporting each one's raw outcome, which outcomes.ts folds into the next
 * observation) and the plan around them.
 */
import type { KubeObject } from '../../kube/resource'
import { legacyMachineFinalizer, machineFinalizer } from './machine-deps'
import type { NodeSyncPatch } from './node-sync'
import type { DrainSkipReason, Problem, VolumeWaitSkipReason } from './observation'

export type MachineAction =
  /**
   * Before anything else, so a delete that races the create cannot leave an instance behind.
   * Also replaces the finalizer of earlier versions. `claimCreate`: the instance is to be created
   * next, so the same patch takes the create claim (one Machine write instead of two).
   */
  | { type: 'add-finalizer'; claimCreate?: true }
  /**
   * Mark the Machine while this reconcile creates its instance (see claim-holder.ts);
   * `forDeletion`: a deletion takes over a dead create's claim (deletion.ts `createClaimHold`).
   */
  | { type: 'claim-create'; forDeletion?: true }
  | { type: 'create-instance' }
  /** Drop this reconcile's claim after a failed create, so the retry need not wait for it. */
  | { type: 'release-claim' }
  /** Write spec.providerID (set once) and the providerID-hash label Node events map through. */
  | { type: 'record-provider-id'; providerID: string }
  /** Look for the Node that joined with the instance's providerID (or its addresses). */
  | { type: 'find-node'; providerID: string | undefined }
  /** Link the Node found: status.nodeRef is written with the status, plus an Event. */
  | { type: 'link-node'; nodeName: string }
  /** Write the labels, annotations and taints the Machine owns on its Node. */
  | { type: 'sync-node'; nodeName: string; patch: NodeSyncPatch }
  /** One cordon-and-evict pass. */
  | { type: 'drain-node'; nodeName: string; nodeUnreachable: boolean }
  /** End the drain without completing it (recorded as the Drained condition's reason). */
  | { type: 'skip-drain'; reason: DrainSkipReason }
  /** End the volume wait (recorded as the VolumesDetached condition's reason). */
  | { type: 'skip-volume-wait'; reason: VolumeWaitSkipReason }
  /** Start or continue the instance's removal through the provider. */
  | { type: 'terminate-instance' }
  /** `giveUpOnFailure`: nodeDeletionTimeout has passed, so a failed delete leaves the Node. */
  | { type: 'delete-node'; nodeName: string; giveUpOnFailure: boolean }
  | { type: 'remove-finalizer' }
  /**
   * A standalone Machine that opted in (machine-api.dev/delete-on-interruption) deletes itself on
   * an interruption; `reason` words the Event.
   */
  | { type: 'delete-machine'; reason: string }

/** An Event the planner asks for (the recorder counts repeats instead of adding Events). */
export interface PlannedEvent {
  type: 'Normal' | 'Warning'
  reason: string
  message: string
}

/** Timings the planner needs; the reconcile derives them from its deps. */
export interface MachinePlanSettings {
  /** How long a create claim is honoured before its reconcile is presumed dead. */
  claimTtlMs: number
  /** How often a waiting deletion stage is looked at again. */
  deletionRetryMs: number
  /** How often an unlinked Machine looks for its Node. */
  nodeLookupRetryMs: number
}

/** The next action, or none and the facts status reports. */
export interface MachinePlan {
  action?: MachineAction
  /** A permanent failure: the Machine is Failed until its spec (generation) changes. */
  failure?: Problem
  /** The MachineClass generation `failure` happened on (status.failureClassGeneration). */
  failureClassGeneration?: number | undefined
  /** A transient provisioning problem (retried). */
  infrastructureProblem?: Problem
  /**
   * A transient failure to read a provisioned Machine's instance (throttled, timed out): the last
   * known state stands (InfrastructureReady, addresses, providerStatus, Ready); only the
   * InstanceObserved condition says the read failed.
   */
  readProblem?: Problem
  /** The Deleting condition's reason and message while the Machine is being deleted. */
  deleting?: Problem
  events: PlannedEvent[]
  requeueAfterMs?: number
  /**
   * A transient failure without a delay of its own: the reconcile writes status, then fails with
   * it, so the runner's per-key backoff paces the retry.
   */
  backoff?: Problem
  /** Deletion stage timers to start (status.deletion). */
  startTimers?: Record<string, string>
}

/** Whether the Machine carries this controller's finalizer (or the one of earlier versions). */
export function hasFinalizer(machine: KubeObject): boolean {
  const finalizers = machine.metadata?.finalizers ?? []
  return finalizers.includes(machineFinalizer) || finalizers.includes(legacyMachineFinalizer)
}

/** Whether the Machine still carries only the finalizer of earlier versions. */
export function hasLegacyFinalizer(machine: KubeObject): boolean {
  const finalizers = machine.metadata?.finalizers ?? []
  return finalizers.includes(legacyMachineFinalizer) && !finalizers.includes(machineFinalizer)
}

/** A Warning Event for `problem`. */
export function warning(problem: Problem): PlannedEvent {
  return { type: 'Warning', reason: problem.reason, message: problem.message }
}

/** `{ requeueAfterMs }` when `ms` is set. */
export function timer(ms: number | undefined): { requeueAfterMs?: number } {
  return ms === undefined ? {} : { requeueAfterMs: ms }
}
