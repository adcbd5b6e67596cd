/**
 * @module What one Machine reconcile knows: the Machine as last read or written, what its provider
 * reported about the instance, the Node, the create claim and the deletion facts. Plain data: the
 * planner and status.ts read it, and outcomes.ts folds each executed action's outcome into it.
 */

import type { V1Node } from '@kubernetes/client-node'
import type { Machine } from '../../api/v1beta1/machine'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import type { DrainRecord } from '../../drain/drain-record'
import type { ProviderResult } from '../../providers/actuator'
import type { ProviderFailure } from '../runtime/classify'

/** A reason (condition and Event reason) and a message a human can act on. */
export interface Problem {
  reason: string
  message: string
}

/** What the provider reported about the Machine's instance. */
export type InstanceObservation =
  /** Not asked: no usable provider, or the Machine is Failed for its current generation. */
  | { state: 'not-asked' }
  | { state: 'absent' }
  /** Live infrastructure; `result` is the provider's report (absent while deleting). */
  | { state: 'present'; result?: ProviderResult | undefined; created?: boolean }
  /** Termination started this pass and is still going; look again after `requeueAfterMs`. */
  | { state: 'terminating'; requeueAfterMs: number | undefined }
  /** A provider call (exists, update, create or delete) failed, classified by classify.ts. */
  | { state: 'failed'; failure: ProviderFailure }

/** The Machine's Node. */
export type NodeObservation =
  /** Not looked up: no providerID is known yet. */
  | { state: 'not-looked-up' }
  /** Looked up: none has joined with the Machine's providerID (or addresses). */
  | { state: 'missing' }
  /** status.nodeRef names a Node that no longer exists (or was replaced). */
  | { state: 'gone'; name: string }
  /** `linked`: status.nodeRef already names it (or this pass linked it). */
  | { state: 'found'; node: V1Node; linked: boolean }

/** The create claim annotation on the Machine (see claim-holder.ts). */
export interface ClaimObservation {
  at: Date
  /** True when this process wrote it in this reconcile. */
  mine: boolean
  /** True only when its holder certainly no longer runs. */
  holderDead: boolean
  /** Taken over by a deletion from a dead create: every launch of that create came before `at`. */
  forDeletion?: boolean
}

/** When each waiting deletion stage started (status.deletion), so timeouts survive restarts. */
export interface DeletionTimers {
  waitForPreDrainHookStartTime?: string
  nodeDrainStartTime?: string
  waitForNodeVolumeDetachStartTime?: string
  waitForPreTerminateHookStartTime?: string
}

/** Why the drain ended without completing. */
export type DrainSkipReason =
  | 'NodeDrainTimeout'
  | 'DrainExcluded'
  | 'NodeNotFound'
  /** An EC2 notice's deadline came (shared/interruption.ts): the instance goes now. */
  | 'InterruptionDeadline'
/** Why the wait for volumes to detach ended without them detaching. */
export type VolumeWaitSkipReason =
  | 'VolumeDetachTimeout'
  | 'VolumeWaitExcluded'
  | 'NodeNotFound'
  | 'NodeUnreachable'
  | 'InterruptionDeadline'

/** What the deletion sequence has learned (only while the Machine is being deleted). */
export interface DeletionFacts {
  /** Drained is True (earlier pass or this one); `drained` records how it ended this pass. */
  drained: boolean
  volumesDetached: boolean
  /** Volumes still attached to the Node (empty when none or not looked at). */
  attachedVolumes: string[]
  /** A drain pass ran in this reconcile and did not finish: its progress message. */
  drainProgress?: string | undefined
  /** The drain ended in this reconcile: completed on this Node, or skipped for this reason. */
  drainEnded?: { completed: string } | { skipped: DrainSkipReason } | undefined
  /** What the drain did so far, this pass merged in (status.deletion.drain); see drain-record.ts. */
  drainRecord?: DrainRecord | undefined
  /** The volume wait was skipped in this reconcile, for this reason. */
  volumeWaitSkipped?: VolumeWaitSkipReason | undefined
  /** Timers started in this reconcile, merged over status.deletion. */
  startedTimers: DeletionTimers
}

/** The deletion facts before anything is known (nothing finished, nothing attached). */
export const noDeletionFacts: DeletionFacts = {
  drained: false,
  volumesDetached: false,
  attachedVolumes: [],
  startedTimers: {},
}

/** Everything the planner and computeMachineStatus read. */
export interface MachineObservation {
  machine: Machine
  /** The generation of the Machine's MachineClass as this run read it (none: no class read). */
  classGeneration?: number | undefined
  /**
   * The MachineClass this run read (or was handed), when it asked the provider: what UpToDate
   * compares the Machine's status.builtFrom with. Absent on runs that read no class.
   */
  machineClass?: MachineClass | undefined
  /** The provider this run called, by name (recorded with the instance's access). */
  providerName?: string | undefined
  /** Why no provider can act on the Machine (class missing, provider not deployed). */
  providerProblem?: Problem | undefined
  instance: InstanceObservation
  node: NodeObservation
  claim?: ClaimObservation | undefined
  /** Set only while the Machine is being deleted. */
  deletion?: DeletionFacts | undefined
  /**
   * status.nodeRef names a Node that is not this Machine's (why, see node-ownership.ts): the
   * Node is left alone and looked up again as if the Machine were not linked.
   */
  nodeRefMismatch?: string | undefined
  /** True once the finalizer was removed: the Machine is about to disappear. */
  released?: boolean
}
