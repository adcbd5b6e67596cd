/**
 * @module What a MachineSet (or a MachineDeployment, which copies it to its sets without a
 * rollout) does when EC2 announces that one of its Machines' instances is going
 * (src/api/instance-notice.ts): which notices it replaces on, and how many Machines it may run
 * above `replicas` while doing so. A field of the set, not of the Machine template: it is the
 * set's behaviour (a surge is a set's notion), and a template field would roll every Machine when
 * the policy changes.
 */
import { z } from 'zod'
import { intOrPercentSchema } from '../shared/int-or-string-schema'
import { lazySchema } from '../shared/lazy-schema'

/** What a set does on a rebalance recommendation. */
export const REBALANCE_ACTIONS = ['Record', 'Replace'] as const

/** `spec.interruption` of a MachineSet and a MachineDeployment. */
export const interruptionPolicySchema = lazySchema(() =>
  z
    .object({
      rebalanceRecommendation: z
        .enum(REBALANCE_ACTIONS)
        .optional()
        .describe(
          'On an EC2 rebalance recommendation: Record (the default) only records it on the Machine; Replace replaces the Machine as for an interruption, once the replacement is Ready.',
        ),
      maxSurge: intOrPercentSchema(
        'Machines the set may run above replicas to replace interrupted ones (default 25%, rounded up). A notice due within 10 minutes is drained at once whatever this bound; its replacement waits for room.',
      ).optional(),
    })
    .describe(
      'What the set does when EC2 announces an interruption, a stop, maintenance or a rebalance recommendation for a Machine.',
    ),
)

/** A set's interruption policy as read. */
export type InterruptionPolicy = z.infer<ReturnType<typeof interruptionPolicySchema>>
