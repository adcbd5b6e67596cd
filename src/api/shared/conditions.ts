/** @module metav1.Condition, the one condition shape every kind reports. */
import { z } from 'zod'
import { lazySchema } from './lazy-schema'

/** A point in time (RFC 3339), as Kubernetes serialises metav1.Time. */
export function timestampSchema(description: string) {
  return z.iso.datetime({ offset: true }).describe(description)
}

/** One observation of an aspect of an object's state (metav1.Condition). */
export const conditionSchema = lazySchema(() =>
  z
    .object({
      type: z
        .string()
        .min(1)
        .max(316)
        .regex(
          /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/,
        )
        .describe('Type of condition in CamelCase, e.g. Ready or NodeHealthy.'),
      status: z
        .enum(['True', 'False', 'Unknown'])
        .describe('Status of the condition: True, False or Unknown.'),
      observedGeneration: z
        .int()
        .min(0)
        .optional()
        .describe('The .metadata.generation the condition was set from.'),
      lastTransitionTime: timestampSchema('When the condition last changed status.'),
      reason: z
        .string()
        .min(1)
        .max(1024)
        .regex(/^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/)
        .describe('A CamelCase, machine-readable reason for the last transition.'),
      message: z.string().max(32768).describe('A human-readable message about the transition.'),
    })
    .describe('A metav1.Condition.'),
)

/** A metav1.Condition. */
export type Condition = z.infer<ReturnType<typeof conditionSchema>>

/** A list of conditions keyed by type (at most 32, as in Cluster API). */
export function conditionsSchema(description: string) {
  return z
    .array(conditionSchema())
    .max(32)
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
    .describe(description)
}
