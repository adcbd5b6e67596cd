/**
 * @module What a MachineDeployment's disruption budgets allow this pass. Pure. A replacement is
 * in flight while a Machine is not available or being deleted, whatever the reason (a surge
 * Machine still provisioning, an expired or rolled-out one leaving, a Failed or interrupted one):
 * counted from the MachineSets' status, as the rollout counts them, so involuntary replacements
 * are never held but use up the budget. Two allowances come out:
 * - the rollout's (reason Drift when the current set was made for a class or image change, else
 *   Rollout), a cap planRollingUpdate takes;
 * - the expiry allowance of the current set (annotation, allowance.ts); older sets get 0: the
 *   rollout replaces their Machines anyway.
 * Without a budget for a reason: rollouts follow maxSurge/maxUnavailable alone, and expiry replaces
 * maxSurge Machines (at least 1) at a time.
 */
import { ANNOTATIONS } from '../../api/group'
import type { DisruptionReason } from '../../api/shared/disruption'
import type { ExpiryAllowance } from '../disruption/allowance'
import { type BudgetEvaluation, describeBudget, evaluateBudgets } from '../disruption/budgets'
import type { MachineSetObject } from '../machine-set/types'
import type { MachineDeploymentObject } from './machine-sets'

/** On a MachineSet: JSON `{reason, message}`, why the deployment rolled to it (rollout-facts.ts). */
export const rolloutReasonAnnotation = ANNOTATIONS.rolloutReason

/** The rollout's budget this pass. */
export interface RolloutBudget {
  reason: DisruptionReason
  evaluation: BudgetEvaluation
  /** Machines of the deployment not available or being deleted. */
  inFlight: number
  /** The cap for planRollingUpdate; undefined when no budget applies. */
  allowance: number | undefined
}

/** Both allowances and when they may next change. */
export interface DeploymentDisruption {
  rollout: RolloutBudget
  /** The expiry allowance of the current set. */
  expiry: ExpiryAllowance
  /** When a budget window opens or closes next, for any reason. */
  changesAt?: Date
}

/**
 * Machines of `set` in flight: existing or wanted, less those available within spec.replicas.
 * Available Machines above spec.replicas are about to be deleted (the set's status may not show
 * the scale-down yet), so they count as in flight, as the rollout counts them.
 */
function inFlightOf(set: MachineSetObject): number {
  const replicas = set.spec.replicas ?? 0
  const footprint = Math.max(replicas, set.status?.replicas ?? 0)
  return Math.max(0, footprint - Math.min(set.status?.availableReplicas ?? 0, replicas))
}

/** The budget reason of a rollout to `current`: Drift for a class or image change. */
export function rolloutBudgetReason(current: MachineSetObject | undefined): DisruptionReason {
  const raw = current?.metadata.annotations?.[rolloutReasonAnnotation]
  if (!raw) return 'Rollout'
  try {
    const { reason } = JSON.parse(raw) as { reason?: unknown }
    return reason === 'ClassChanged' || reason === 'ImageChanged' ? 'Drift' : 'Rollout'
  } catch {
    return 'Rollout'
  }
}

/** The budgets of `md` over its `sets` (not being deleted) at `now`. */
export function planDisruption(
  md: MachineDeploymentObject,
  sets: { current: MachineSetObject | undefined; all: MachineSetObject[]; maxSurge: number },
  now: Date,
): DeploymentDisruption {
  const budgets = md.spec.disruption?.budgets
  const replicas = md.spec.replicas ?? 0
  const reason = rolloutBudgetReason(sets.current)
  const rolloutEval = evaluateBudgets(budgets, { reason, replicas, now })
  const inFlight = sets.all.reduce((sum, s) => sum + inFlightOf(s), 0)
  const rollout: RolloutBudget = {
    reason,
    evaluation: rolloutEval,
    inFlight,
    allowance:
      rolloutEval.limit === undefined ? undefined : Math.max(0, rolloutEval.limit - inFlight),
  }
  const expiryEval = evaluateBudgets(budgets, { reason: 'Expiry', replicas, now })
  const current = sets.current
  const othersInFlight = sets.all
    .filter((s) => s.metadata.name !== current?.metadata.name)
    .reduce((sum, s) => sum + inFlightOf(s), 0)
  const limit = expiryEval.limit ?? Math.max(1, sets.maxSurge)
  const budget = (budgets ?? [])[expiryEval.index ?? -1]
  const expiry: ExpiryAllowance = {
    allowed: Math.max(0, limit - othersInFlight),
    budget:
      budget === undefined || expiryEval.index === undefined
        ? `no budget for Expiry (maxSurge ${Math.max(1, sets.maxSurge)} at a time)`
        : describeBudget(budget, expiryEval.index),
    ...(expiryEval.changesAt ? { until: expiryEval.changesAt.toISOString() } : {}),
  }
  const times = [rolloutEval.changesAt, expiryEval.changesAt]
    .filter((t): t is Date => t !== undefined)
    .map((t) => t.getTime())
  return {
    rollout,
    expiry,
    ...(times.length > 0 ? { changesAt: new Date(Math.min(...times)) } : {}),
  }
}

/** The expiry allowance an older set gets: none, its Machines go with the rollout. */
export const olderSetExpiryAllowance: ExpiryAllowance = {
  allowed: 0,
  budget: 'an older MachineSet of a rollout (the rollout replaces its Machines)',
}
