/**
 * @module The reasons a MachineDeployment replaces Machines voluntarily, which its disruption
 * budgets can name. Here without zod so the planners can import them.
 */

/**
 * Drift: the MachineClass or its image changed. Expiry: a Machine outlived the template's
 * expireAfter. Rollout: the template changed or spec.rolloutAfter passed.
 */
export const DISRUPTION_REASONS = ['Drift', 'Expiry', 'Rollout'] as const

/** A voluntary replacement reason. */
export type DisruptionReason = (typeof DISRUPTION_REASONS)[number]

/** One budget as the planners read it (the schema is disruption-budget-schema.ts). */
export interface DisruptionBudget {
  /** How many Machines may be in replacement at once: an integer or a percentage. */
  machines: number | string
  /** A 5-field cron schedule (UTC) at which the budget's window opens. */
  schedule?: string | undefined
  /** How long the window stays open after each time the schedule fires. */
  duration?: string | undefined
  /** The reasons the budget caps; unset: all of them. */
  reasons?: DisruptionReason[] | undefined
}
