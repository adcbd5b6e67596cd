/**
 * @module What a MachineHealthCheck observes about one target: the Machine (only the fields the
 * decision reads) and its Node, plus the well-known annotations that steer remediation.
 */

/** The condition the health check owns on each target Machine. */
export { healthCheckSucceededCondition } from '../../api/condition-types'

/** A metav1.Condition as read from an object (times as RFC 3339 strings). */
export interface ObservedCondition {
  type: string
  status: string
  reason?: string | undefined
  message?: string | undefined
  lastTransitionTime?: string | undefined
}

/** The Machine fields evaluation and remediation read. */
export interface TargetMachine {
  name: string
  uid?: string | undefined
  creationTimestamp?: string | undefined
  deletionTimestamp?: string | undefined
  annotations: Record<string, string>
  /** The controlling owner, when it is a MachineSet (only then does deletion mean replacement). */
  machineSetOwner?: string | undefined
  phase?: string | undefined
  failureReason?: string | undefined
  failureMessage?: string | undefined
  nodeRef?: { name: string; uid?: string | undefined } | undefined
  /** `status.lastUpdated`: when the phase last changed. */
  lastUpdated?: string | undefined
  conditions: ObservedCondition[]
}

/** The Node fields evaluation reads. */
export interface TargetNode {
  name: string
  uid?: string | undefined
  conditions: ObservedCondition[]
}

/** One Machine the selector matched, with its Node as found (undefined: no nodeRef or gone). */
export interface Target {
  machine: TargetMachine
  node?: TargetNode | undefined
}

/** An unhealthy Node or Machine condition from the spec, with its timeout parsed. */
export interface UnhealthyConditionRule {
  type: string
  status: string
  timeoutMs: number
}

/** The parsed parts of a MachineHealthCheck spec that evaluation needs. */
export interface HealthCheckRules {
  /** On the Node's conditions. */
  unhealthyConditions: UnhealthyConditionRule[]
  /** On the Machine's own conditions, whether or not it has a Node. */
  unhealthyMachineConditions: UnhealthyConditionRule[]
  /** 0 disables the startup check. */
  nodeStartupTimeoutMs: number
}
