/**
 * @module What one Machine reconcile has learned so far. Phases record facts here; the status is
 * computed from it in one place (status.ts). Each field says when it is set.
 */
import type { V1Node } from '@kubernetes/client-node'
import type { Machine } from '../../api/v1beta1/machine'
import type { ObjectMeta as KubeObjectMeta } from '../../kube/resource'
import type { ProviderResult } from '../../providers/actuator'
import type { ConditionInput } from '../shared/conditions'

/** A recorded problem: the reason becomes a condition reason, the message its message. */
export interface Problem {
  reason: string
  message: string
}

export interface MachineScope {
  /** The Machine as last read or written in this reconcile (its resourceVersion is current). */
  machine: Machine
  /** The reconcile's "now" (from the injected clock). */
  now: Date
  /** Why the provider could not be resolved or used (class missing, unknown provider, bad spec). */
  providerProblem?: Problem
  /** Set by provisioning: the provider reported live infrastructure. */
  infrastructure?: ProviderResult
  /** Set by provisioning: a transient provider failure (retried). */
  infrastructureProblem?: Problem
  /** Set by provisioning: a permanent failure; the Machine goes Failed until its spec changes. */
  failure?: Problem
  /** Set by node linking: the Node found for the Machine. */
  node?: V1Node
  /** Set by node linking when the Machine had a nodeRef but that Node is gone. */
  nodeGone?: boolean
  /** Set during deletion: the Deleting condition's reason and message. */
  deleting?: Problem
  /** Conditions set directly by a phase (Drained, VolumesDetached) on top of the computed ones. */
  extraConditions: ConditionInput[]
  /** Deletion stage timers to record in status.deletion. */
  deletionTimers: Record<string, string>
  /** Requeue requests of the phases; the reconcile returns the earliest. */
  requeueAfterMs: number[]
}

/** The metadata fields Kubernetes sets that the API schema leaves loose. */
export function meta(machine: Machine): KubeObjectMeta {
  return machine.metadata as KubeObjectMeta
}

/** A new scope for `machine` at `now`. */
export function newScope(machine: Machine, now: Date): MachineScope {
  return { machine, now, extraConditions: [], deletionTimers: {}, requeueAfterMs: [] }
}

/** The earliest requeue asked for, if any. */
export function earliestRequeue(scope: MachineScope): number | undefined {
  const delays = scope.requeueAfterMs.filter((d) => Number.isFinite(d) && d >= 0)
  return delays.length === 0 ? undefined : Math.min(...delays)
}
