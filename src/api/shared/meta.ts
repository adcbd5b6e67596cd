/** @module Object metadata, references and template metadata shared by every kind. */
import { z } from 'zod'
import { lazySchema } from './lazy-schema'

/**
 * Top-level metadata as admission and conversion receive it. Only the fields the webhook reads are
 * typed; everything else (uid, managedFields...) passes through untouched.
 */
export const objectMetaSchema = lazySchema(() =>
  z.looseObject({
    name: z.string().optional(),
    generateName: z.string().optional(),
    namespace: z.string().optional(),
    uid: z.string().optional(),
    resourceVersion: z.string().optional(),
    generation: z.number().optional(),
    labels: z.record(z.string(), z.string()).optional(),
    annotations: z.record(z.string(), z.string()).optional(),
  }),
)

/** Kubernetes object metadata. */
export type ObjectMeta = z.infer<ReturnType<typeof objectMetaSchema>>

/** Labels and annotations to stamp on generated objects (Machines of a set, the Node of a Machine). */
export function templateMetaSchema(description: string) {
  return z
    .object({
      labels: z
        .record(z.string(), z.string().describe('A label value.'))
        .optional()
        .describe('Labels to set.'),
      annotations: z
        .record(z.string(), z.string().describe('An annotation value.'))
        .optional()
        .describe('Annotations to set.'),
    })
    .describe(description)
}

/** Labels and annotations. */
export type TemplateMeta = z.infer<ReturnType<typeof templateMetaSchema>>

/** A DNS-1123 subdomain name, as used for object names. */
export function objectNameSchema(description: string) {
  return z
    .string()
    .min(1)
    .max(253)
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/, {
      message: 'must be a lowercase DNS-1123 subdomain',
    })
    .describe(description)
}

/** A reference to an object in the same namespace, by name. */
export function localReferenceSchema(description: string, target: string) {
  return z
    .object({ name: objectNameSchema(`Name of the ${target} in the same namespace.`) })
    .describe(description)
}

/** A reference to a namespaced object of another API (e.g. an external remediation template). */
export function typedReferenceSchema(description: string) {
  return z
    .object({
      apiVersion: z.string().min(1).max(317).describe('API version of the referent.'),
      kind: z.string().min(1).max(63).describe('Kind of the referent.'),
      name: objectNameSchema('Name of the referent, in the same namespace.'),
    })
    .describe(description)
}
