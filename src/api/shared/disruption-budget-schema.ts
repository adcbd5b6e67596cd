/** @module The zod schema of a MachineDeployment's disruption budgets (spec.disruption). */
import { z } from 'zod'
import { DISRUPTION_REASONS } from './disruption'
import { durationSchema } from './duration-schema'
import { intOrPercentSchema } from './int-or-string-schema'
import { lazySchema } from './lazy-schema'

/** One budget: a cap on voluntary replacements, always or within a scheduled window. */
export const disruptionBudgetSchema = lazySchema(() =>
  z
    .object({
      machines: intOrPercentSchema(
        'How many Machines of the deployment may be in voluntary replacement at once (a ' +
          'replacement is in flight from the creation of the new Machine until the old one is ' +
          'gone); Machines unavailable or being deleted for any reason count against it. 0 holds ' +
          'every voluntary replacement. A percentage of spec.replicas is rounded up.',
      ),
      schedule: z
        .string()
        .min(1)
        .max(128)
        .optional()
        .describe(
          'When the budget applies: a 5-field cron schedule in UTC ("0 9 * * 1-5"; @daily and ' +
            'the other @ macros too), each firing opening a window of `duration`. Unset: always. ' +
            'Requires duration.',
        ),
      duration: durationSchema(
        'How long each window of the schedule stays open. Requires schedule.',
      ).optional(),
      reasons: z
        .array(z.enum(DISRUPTION_REASONS).describe('Drift, Expiry or Rollout.'))
        .max(DISRUPTION_REASONS.length)
        .optional()
        .describe(
          'The voluntary replacements the budget caps: Drift (the class or its image changed), ' +
            'Expiry (expireAfter), Rollout (template change, rolloutAfter). Unset: all three. ' +
            'Failed, interrupted or unhealthy Machines are replaced regardless.',
        ),
    })
    .meta({
      'x-kubernetes-validations': [
        {
          rule: 'has(self.schedule) == has(self.duration)',
          message: 'schedule and duration must be set together',
        },
      ],
    })
    .describe('A disruption budget.'),
)

/** spec.disruption of a MachineDeployment. */
export const disruptionSchema = lazySchema(() =>
  z
    .object({
      budgets: z
        .array(disruptionBudgetSchema())
        .max(50)
        .optional()
        .describe(
          'Caps on voluntary replacements; the most restrictive budget that applies now (its ' +
            'window open, its reasons naming the replacement) wins. None: drift and rollouts ' +
            "follow the strategy's maxSurge/maxUnavailable, expiry replaces maxSurge (at least " +
            '1) Machines at a time.',
        ),
    })
    .describe('How voluntary replacements (drift, expiry, rollout) are paced.'),
)
