/**
 * @module The `HealthCheckSucceeded` condition each target Machine carries. Pure. Its message says
 * which check failed and for how long (the timeout that was exceeded, and since when), so
 * `kubectl describe machine` answers "why was this Machine replaced?".
 */

import { ANNOTATIONS } from '../../api/group'
import type { Condition } from '../../api/shared/conditions'
import { setCondition } from '../shared/conditions'
import { formatDuration, formatTime } from './format'
import { healthCheckSucceededCondition, type ObservedCondition } from './target'
import type { TargetEvaluation, TargetHealth, UnhealthyDetail } from './targets'

/** Describes what failed, e.g. `Node n1: condition Ready is False for more than 5m (since ...)`. */
export function describeUnhealthy(detail: UnhealthyDetail, sinceMs?: number): string {
  const since = sinceMs === undefined ? '' : ` (since ${formatTime(sinceMs)})`
  switch (detail.kind) {
    case 'requested':
      return `remediation requested by annotation ${ANNOTATIONS.remediateMachine}`
    case 'failed':
      return `Machine failed: ${detail.failureReason ?? 'phase Failed'}${detail.failureMessage ? `: ${detail.failureMessage}` : ''}`
    case 'node-gone':
      return `Node ${detail.nodeName} is gone`
    case 'condition':
      return `Node ${detail.nodeName}: condition ${detail.type} is ${detail.status} for more than ${formatDuration(detail.timeoutMs)}${since}`
    case 'machine-condition':
      return `Machine condition ${detail.type} is ${detail.status} for more than ${formatDuration(detail.timeoutMs)}${since}`
    case 'startup':
      return `no Node joined within nodeStartupTimeout ${formatDuration(detail.timeoutMs)} of provisioning${since}`
  }
}

function conditionFor(
  health: Exclude<TargetHealth, { state: 'deleting' }>,
  nodeName: string | undefined,
): Pick<Condition, 'status' | 'reason' | 'message'> {
  switch (health.state) {
    case 'healthy':
      return { status: 'True', reason: 'Healthy', message: `Node ${nodeName} passes every check` }
    case 'pending':
      return {
        status: 'True',
        reason: 'UnhealthyConditionPending',
        message: `${health.on === 'node' ? `Node ${nodeName}` : 'Machine'}: condition ${health.type} is ${health.status} since ${formatTime(health.sinceMs)}; unhealthy at ${formatTime(health.deadlineMs)}`,
      }
    case 'starting':
      return {
        status: 'Unknown',
        reason: 'WaitingForNode',
        message:
          health.deadlineMs === undefined
            ? 'no Node yet; the startup timer runs once the Machine is provisioned (or is disabled)'
            : `no Node yet; unhealthy at ${formatTime(health.deadlineMs)} unless one joins`,
      }
    case 'unhealthy':
      return {
        status: 'False',
        reason: health.reason,
        message: describeUnhealthy(health.detail, health.sinceMs),
      }
  }
}

/**
 * The desired HealthCheckSucceeded condition of a target, keeping `lastTransitionTime` unless the
 * status flips. Undefined for Machines being deleted: their verdict no longer matters.
 */
export function machineHealthCondition(
  evaluation: TargetEvaluation,
  previous: ObservedCondition | undefined,
  now: Date,
): Condition | undefined {
  if (evaluation.health.state === 'deleting') return undefined
  const next = conditionFor(evaluation.health, evaluation.target.machine.nodeRef?.name)
  const [condition] = setCondition(
    previous ? [previous] : [],
    { type: healthCheckSucceededCondition, ...next },
    { time: formatTime(now.getTime()) },
  )
  return condition as Condition
}

/** True when writing `next` would change `previous` (status, reason, message or transition time). */
export function conditionChanged(
  previous: ObservedCondition | undefined,
  next: Condition,
): boolean {
  return (
    previous?.status !== next.status ||
    previous.reason !== next.reason ||
    previous.message !== next.message ||
    previous.lastTransitionTime !== next.lastTransitionTime
  )
}
