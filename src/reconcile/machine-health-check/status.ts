/**
 * @module The MachineHealthCheck status. Pure: counts from the plan, sorted target names, and two
 * conditions the controller always sets:
 *  - `RemediationAllowed`: False/TooManyUnhealthy while the short-circuit holds, with the counts;
 *  - `TargetsHealthy`: False while any target is not healthy, naming them and why.
 * `lastTransitionTime` changes only when a condition flips; other condition types (the runtime's
 * `Stalled`) are kept as they are.
 */
import type { Condition } from '../../api/shared/conditions'
import type { IntOrPercent } from '../../api/shared/int-or-string'
import { setCondition } from '../shared/conditions'
import { formatNames, formatTime } from './format'
import type { RemediationPlan } from './plan'
import type { ObservedCondition } from './target'
import type { TargetEvaluation } from './targets'

/** Condition types the health check owns on itself. */
export const remediationAllowedCondition = 'RemediationAllowed'
export const targetsHealthyCondition = 'TargetsHealthy'

/** The status fields the health check writes. */
export interface HealthCheckStatus {
  expectedMachines: number
  currentHealthy: number
  remediationsAllowed: number
  targets: string[]
  observedGeneration?: number
  conditions: ObservedCondition[]
}

/** The RemediationAllowed condition for `plan`, quoting the counts and the configured limit. */
export function remediationAllowed(
  plan: RemediationPlan,
  maxUnhealthy: IntOrPercent,
): Omit<Condition, 'lastTransitionTime'> {
  const counts = `${plan.unhealthy} of ${plan.expectedMachines} Machines not healthy`
  const limit = `maxUnhealthy ${maxUnhealthy} (${plan.maxUnhealthy})`
  if (plan.shortCircuited) {
    // Machines still starting count too; only an unhealthy one is actually held back.
    const held = heldBack(plan)
    const holding = held.length > 0 ? `; holding back ${formatNames(held)}` : ''
    return {
      type: remediationAllowedCondition,
      status: 'False',
      reason: 'TooManyUnhealthy',
      message: `${counts}, more than ${limit}: remediation is paused until at most ${plan.maxUnhealthy} are not healthy${holding}`,
    }
  }
  const throttled = plan.skipped.some((s) => s.reason === 'MaxInFlight')
  const inFlight =
    plan.maxInFlight === undefined
      ? ''
      : `; ${plan.inFlight} of at most ${plan.maxInFlight} in flight`
  return {
    type: remediationAllowedCondition,
    status: 'True',
    reason: throttled ? 'MaxInFlightReached' : 'WithinMaxUnhealthy',
    message: `${counts}, within ${limit}${inFlight}`,
  }
}

/** The unhealthy Machines the short-circuit keeps from being remediated, by name. */
export function heldBack(plan: RemediationPlan): string[] {
  return plan.skipped
    .filter((s) => s.reason === 'TooManyUnhealthy')
    .map((s) => s.name)
    .sort()
}

function notHealthyLabel(e: TargetEvaluation): string {
  const h = e.health
  const why = h.state === 'unhealthy' ? h.reason : h.state
  return `${e.target.machine.name} (${why})`
}

/** The TargetsHealthy condition: which targets are not healthy, and why. */
export function targetsHealthy(
  evaluations: TargetEvaluation[],
): Omit<Condition, 'lastTransitionTime'> {
  const bad = evaluations
    .filter((e) => !e.healthy)
    .sort((a, b) => a.target.machine.name.localeCompare(b.target.machine.name))
  if (bad.length === 0) {
    return {
      type: targetsHealthyCondition,
      status: 'True',
      reason: 'AllHealthy',
      message: `all ${evaluations.length} Machines are healthy`,
    }
  }
  return {
    type: targetsHealthyCondition,
    status: 'False',
    reason: 'MachinesNotHealthy',
    message: `${bad.length} of ${evaluations.length} Machines not healthy: ${formatNames(bad.map(notHealthyLabel))}`,
  }
}

/** The desired status of the health check after this pass. */
export function healthCheckStatus(input: {
  plan: RemediationPlan
  evaluations: TargetEvaluation[]
  maxUnhealthy: IntOrPercent
  previous: ObservedCondition[]
  generation: number | undefined
  now: Date
}): HealthCheckStatus {
  const { plan, now } = input
  const stamp = { time: formatTime(now.getTime()) }
  let conditions = setCondition(input.previous, remediationAllowed(plan, input.maxUnhealthy), stamp)
  conditions = setCondition(conditions, targetsHealthy(input.evaluations), stamp)
  return {
    expectedMachines: plan.expectedMachines,
    currentHealthy: plan.currentHealthy,
    remediationsAllowed: plan.remediationsAllowed,
    targets: input.evaluations.map((e) => e.target.machine.name).sort(),
    ...(input.generation === undefined ? {} : { observedGeneration: input.generation }),
    conditions,
  }
}
