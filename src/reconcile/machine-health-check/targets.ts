/**
 * @module Health evaluation of MachineHealthCheck targets. Pure: `(targets, rules, now)` -> per
 * target health plus the earliest moment any target can cross a timeout, so the reconcile requeues
 * exactly then instead of waiting for the next sweep.
 *
 * A target is unhealthy when (first match wins): a human asked for it (`remediate-machine`); the
 * Machine failed (phase Failed or failureReason); a Machine condition in
 * `unhealthyMachineConditions` has held for at least its timeout (with or without a Node); its Node
 * is gone after linking; a Node condition in `unhealthyConditions` has held for at least its
 * timeout; or no Node joined within `nodeStartupTimeout` of the Machine being provisioned. Of the
 * timers still running, the one that expires first is the one reported.
 */

import { ANNOTATIONS } from '../../api/group'
import type {
  HealthCheckRules,
  ObservedCondition,
  Target,
  TargetMachine,
  UnhealthyConditionRule,
} from './target'

/** Why a target is unhealthy; also the reason of its HealthCheckSucceeded=False condition. */
export type UnhealthyReason =
  | 'RemediationRequested'
  | 'MachineFailed'
  | 'NodeNotFound'
  | 'UnhealthyMachineCondition'
  | 'UnhealthyNodeCondition'
  | 'NodeStartupTimeout'

/** The health of one target at `now`. */
export type TargetHealth =
  /** Linked to a Node that matches no unhealthy condition. */
  | { state: 'healthy' }
  /**
   * An unhealthy condition (of the Node or of the Machine: `on`) matches but its timeout has not
   * passed; `deadlineMs` is when it will.
   */
  | {
      state: 'pending'
      on: ConditionOwner
      type: string
      status: string
      sinceMs: number
      deadlineMs: number
    }
  /** No Node yet; `deadlineMs` is set while the startup timer runs (after provisioning). */
  | { state: 'starting'; sinceMs?: number; deadlineMs?: number }
  /** Needs remediation. `sinceMs` is when the failing state began, when known. */
  | { state: 'unhealthy'; reason: UnhealthyReason; detail: UnhealthyDetail; sinceMs?: number }
  /** Already being deleted: not evaluated, counted as in flight. */
  | { state: 'deleting' }

/** What failed, for the condition message. */
export type UnhealthyDetail =
  | { kind: 'requested' }
  | { kind: 'failed'; failureReason?: string | undefined; failureMessage?: string | undefined }
  | { kind: 'node-gone'; nodeName: string }
  | { kind: 'condition'; nodeName: string; type: string; status: string; timeoutMs: number }
  | { kind: 'machine-condition'; type: string; status: string; timeoutMs: number }
  | { kind: 'startup'; timeoutMs: number }

/** Whose conditions an unhealthy-condition rule reads. */
export type ConditionOwner = 'node' | 'machine'

/** The verdict on one target. */
export interface TargetEvaluation {
  target: Target
  health: TargetHealth
  /** Counts towards currentHealthy: linked, no unhealthy condition (not even pending), not deleting. */
  healthy: boolean
  /** Remediation already under way: deleting, or handed off and not healthy again yet. */
  inFlight: boolean
}

/** Every target's verdict and the earliest deadline still ahead (epoch ms), if any. */
export interface Evaluation {
  evaluations: TargetEvaluation[]
  nextCheckAtMs?: number
}

// Set by the Machine controller once the provider reports the instance; the startup clock
// starts there because boot time before provisioning is the provider's, not the Node's.
const infrastructureReadyCondition = 'InfrastructureReady'

function parseTime(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? undefined : ms
}

/**
 * When the Machine was provisioned, the start of its node-startup clock: the time
 * `InfrastructureReady` turned True; else, in phase Provisioned or Running, `status.lastUpdated`
 * (the phase change), falling back to creation. Undefined while not provisioned yet.
 */
export function provisionedAtMs(machine: TargetMachine): number | undefined {
  const infra = machine.conditions.find(
    (c) => c.type === infrastructureReadyCondition && c.status === 'True',
  )
  const infraAt = parseTime(infra?.lastTransitionTime)
  if (infraAt !== undefined) return infraAt
  if (machine.phase !== 'Provisioned' && machine.phase !== 'Running') return undefined
  return parseTime(machine.lastUpdated) ?? parseTime(machine.creationTimestamp)
}

type Unhealthy = Extract<TargetHealth, { state: 'unhealthy' }>
type Pending = Extract<TargetHealth, { state: 'pending' }>

/**
 * The rules `conditions` match: the one that expired first (unhealthy), else the one that expires
 * first (pending), else undefined.
 */
function conditionHealth(
  conditions: readonly ObservedCondition[],
  rules: readonly UnhealthyConditionRule[],
  subject: { on: ConditionOwner; nodeName: string; nowMs: number },
): Unhealthy | Pending | undefined {
  const { on, nodeName, nowMs } = subject
  let expired: Unhealthy | undefined
  let expiredDeadline = Number.POSITIVE_INFINITY
  let pending: Pending | undefined
  for (const rule of rules) {
    const found = conditions.find((c) => c.type === rule.type && c.status === rule.status)
    if (!found) continue
    // Without a transition time we cannot know how long it held; start counting now (never early).
    const sinceMs = parseTime(found.lastTransitionTime) ?? nowMs
    const deadlineMs = sinceMs + rule.timeoutMs
    if (nowMs >= deadlineMs) {
      if (deadlineMs < expiredDeadline) {
        expiredDeadline = deadlineMs
        expired =
          on === 'node'
            ? {
                state: 'unhealthy',
                reason: 'UnhealthyNodeCondition',
                detail: { kind: 'condition', nodeName, ...rule },
                sinceMs,
              }
            : {
                state: 'unhealthy',
                reason: 'UnhealthyMachineCondition',
                detail: { kind: 'machine-condition', ...rule },
                sinceMs,
              }
      }
    } else if (!pending || deadlineMs < pending.deadlineMs) {
      pending = { state: 'pending', on, type: rule.type, status: rule.status, sinceMs, deadlineMs }
    }
  }
  return expired ?? pending
}

function nodeHealth(target: Target, rules: HealthCheckRules, nowMs: number): TargetHealth {
  const { machine, node } = target
  const nodeName = machine.nodeRef?.name ?? ''
  // A Node re-created under the same name is not the Node this Machine became.
  const uidChanged = node?.uid && machine.nodeRef?.uid && node.uid !== machine.nodeRef.uid
  if (!node || uidChanged)
    return { state: 'unhealthy', reason: 'NodeNotFound', detail: { kind: 'node-gone', nodeName } }
  const subject = { on: 'node' as const, nodeName, nowMs }
  return (
    conditionHealth(node.conditions, rules.unhealthyConditions, subject) ?? { state: 'healthy' }
  )
}

function startupHealth(
  machine: TargetMachine,
  rules: HealthCheckRules,
  nowMs: number,
): TargetHealth {
  if (rules.nodeStartupTimeoutMs === 0) return { state: 'starting' }
  const sinceMs = provisionedAtMs(machine)
  if (sinceMs === undefined) return { state: 'starting' }
  const deadlineMs = sinceMs + rules.nodeStartupTimeoutMs
  if (nowMs < deadlineMs) return { state: 'starting', sinceMs, deadlineMs }
  const detail = { kind: 'startup' as const, timeoutMs: rules.nodeStartupTimeoutMs }
  return { state: 'unhealthy', reason: 'NodeStartupTimeout', detail, sinceMs }
}

/** The health of one target at `nowMs` (epoch milliseconds). */
export function targetHealth(target: Target, rules: HealthCheckRules, nowMs: number): TargetHealth {
  const { machine } = target
  if (machine.deletionTimestamp) return { state: 'deleting' }
  if (ANNOTATIONS.remediateMachine in machine.annotations) {
    return { state: 'unhealthy', reason: 'RemediationRequested', detail: { kind: 'requested' } }
  }
  if (machine.phase === 'Failed' || machine.failureReason) {
    const detail = {
      kind: 'failed' as const,
      failureReason: machine.failureReason,
      failureMessage: machine.failureMessage,
    }
    return { state: 'unhealthy', reason: 'MachineFailed', detail }
  }
  const own = conditionHealth(machine.conditions, rules.unhealthyMachineConditions, {
    on: 'machine',
    nodeName: machine.nodeRef?.name ?? '',
    nowMs,
  })
  if (own?.state === 'unhealthy') return own
  const rest = machine.nodeRef
    ? nodeHealth(target, rules, nowMs)
    : startupHealth(machine, rules, nowMs)
  return own ? earlierTimer(own, rest) : rest
}

/**
 * A pending Machine condition beside the Node's (or the startup's) verdict: an expired check
 * wins, then whichever timer expires first, so the reconcile requeues for the nearest one.
 */
function earlierTimer(own: Pending, rest: TargetHealth): TargetHealth {
  if (rest.state === 'unhealthy' || rest.state === 'deleting') return rest
  if (rest.state === 'healthy') return own
  const restDeadline = rest.deadlineMs ?? Number.POSITIVE_INFINITY
  return own.deadlineMs < restDeadline ? own : rest
}

/** Evaluates every target at `now`; `nextCheckAtMs` is the earliest pending deadline. */
export function evaluateTargets(targets: Target[], rules: HealthCheckRules, now: Date): Evaluation {
  const nowMs = now.getTime()
  let nextCheckAtMs: number | undefined
  const evaluations = targets.map((target): TargetEvaluation => {
    const health = targetHealth(target, rules, nowMs)
    if ((health.state === 'pending' || health.state === 'starting') && health.deadlineMs) {
      nextCheckAtMs = Math.min(nextCheckAtMs ?? health.deadlineMs, health.deadlineMs)
    }
    const handedOff = ANNOTATIONS.externalRemediation in target.machine.annotations
    return {
      target,
      health,
      healthy: health.state === 'healthy',
      inFlight: health.state === 'deleting' || (handedOff && health.state !== 'healthy'),
    }
  })
  return nextCheckAtMs === undefined ? { evaluations } : { evaluations, nextCheckAtMs }
}
