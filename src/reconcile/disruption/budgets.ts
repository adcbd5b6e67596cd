/**
 * @module How many Machines of a MachineDeployment may be in voluntary replacement at once, from
 * its disruption budgets. Pure: the time and the replica count are arguments.
 *
 * A budget applies to a reason when its `reasons` name it (or are unset) and its window is open
 * (or it has no schedule); among those that apply the lowest `machines` wins, as in Karpenter. A
 * percentage is of spec.replicas and rounded up, as Karpenter and PodDisruptionBudget's
 * maxUnavailable do: "10%" of 5 Machines allows 1 rather than silently holding everything (only
 * "0%" or 0 hold everything), at the cost of allowing up to one Machine more than the exact share.
 */
import type { DisruptionBudget, DisruptionReason } from '../../api/shared/disruption'
import { parseDurationMs } from '../../api/shared/duration'
import { resolveIntOrPercent } from '../../api/shared/int-or-string'
import { windowAt } from './window'

/** The cap for one reason at one time. */
export interface BudgetEvaluation {
  /** Machines that may be in replacement at once; undefined when no budget applies now. */
  limit: number | undefined
  /** Index in spec.disruption.budgets of the budget that sets `limit`. */
  index?: number
  /** When a window of a budget for this reason next opens or closes (the limit may change then). */
  changesAt?: Date
}

/** What the evaluation needs besides the budgets. */
export interface BudgetContext {
  reason: DisruptionReason
  /** The deployment's spec.replicas (percentages are of it). */
  replicas: number
  now: Date
}

function appliesTo(budget: DisruptionBudget, reason: DisruptionReason): boolean {
  return (
    budget.reasons === undefined || budget.reasons.length === 0 || budget.reasons.includes(reason)
  )
}

/**
 * The evaluation of `budgets` for `context.reason` at `context.now`. A schedule that does not parse
 * (admission refuses one; this guards objects written around it) makes its budget apply always: a
 * budget meant to restrict should fail closed.
 */
export function evaluateBudgets(
  budgets: readonly DisruptionBudget[] | undefined,
  context: BudgetContext,
): BudgetEvaluation {
  const { reason, replicas, now } = context
  const result: BudgetEvaluation = { limit: undefined }
  const changes: number[] = []
  ;(budgets ?? []).forEach((budget, index) => {
    if (!appliesTo(budget, reason)) return
    if (budget.schedule !== undefined) {
      const durationMs = parseDurationMs(budget.duration ?? '') ?? 0
      let open = true
      try {
        const state = windowAt(budget.schedule, durationMs, now)
        open = state.open
        const at = state.open ? state.closesAt : state.opensAt
        if (at) changes.push(at.getTime())
      } catch {
        open = true
      }
      if (!open) return
    }
    const value = resolveIntOrPercent(budget.machines, replicas, true)
    if (result.limit === undefined || value < result.limit) {
      result.limit = value
      result.index = index
    }
  })
  if (changes.length > 0) result.changesAt = new Date(Math.min(...changes))
  return result
}

/** How many more replacements may start: the limit less those in flight, never below 0. */
export function remainingAllowance(limit: number, inFlight: number): number {
  return Math.max(0, limit - inFlight)
}

/** A budget as a human reads it in a condition or an Event. */
export function describeBudget(budget: DisruptionBudget, index: number): string {
  const window =
    budget.schedule === undefined ? '' : `, window "${budget.schedule}" for ${budget.duration}`
  return `spec.disruption.budgets[${index}] (${budget.machines} Machines${window})`
}
