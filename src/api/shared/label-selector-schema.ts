/** @module The zod schema of metav1.LabelSelector (matching is in label-selector.ts). */
import { z } from 'zod'
import { lazySchema } from './lazy-schema'

/** A label selector requirement (key, operator, values). */
export const labelSelectorRequirementSchema = lazySchema(() =>
  z
    .object({
      key: z.string().min(1).max(317).describe('The label key the selector applies to.'),
      operator: z
        .enum(['In', 'NotIn', 'Exists', 'DoesNotExist'])
        .describe("The key's relationship to the values: In, NotIn, Exists or DoesNotExist."),
      values: z
        .array(z.string().max(63).describe('A label value.'))
        .max(256)
        .optional()
        .describe(
          'Values for In and NotIn (non-empty); must be empty for Exists and DoesNotExist.',
        ),
    })
    .describe('A label selector requirement.'),
)

/** A metav1.LabelSelector. */
export const labelSelectorSchema = lazySchema(() =>
  z
    .object({
      matchLabels: z
        .record(z.string(), z.string().describe('A label value.'))
        .optional()
        .describe('Labels that must all be present with these values.'),
      matchExpressions: z
        .array(labelSelectorRequirementSchema())
        .max(64)
        .optional()
        .describe('Requirements that must all hold.'),
    })
    .describe('A label query over Machines; the requirements are ANDed.'),
)
