/** @module MachineClass v1alpha1: the legacy shape (one `secretRef` for credentials). */
import { z } from 'zod'
import { lazySchema } from '../shared/lazy-schema'
import { localReferenceSchema } from '../shared/meta'
import { providerDataSchema, providerNameSchema } from '../shared/provider-spec'
import { resourceSchema } from '../shared/resource'

/** The v1alpha1 MachineClass spec. */
export const machineClassSpecV1alpha1Schema = lazySchema(() =>
  z
    .object({
      provider: providerNameSchema(),
      providerSpec: providerDataSchema("The provider's machine spec."),
      secretRef: localReferenceSchema('Secret with the cloud credentials.', 'Secret').optional(),
    })
    .describe('The provider and how to provision its machines (legacy shape).'),
)

/** The whole v1alpha1 MachineClass object. */
export const machineClassV1alpha1Schema = lazySchema(() =>
  resourceSchema({
    kind: 'MachineClass',
    version: 'v1alpha1',
    spec: machineClassSpecV1alpha1Schema(),
    status: z
      .object({
        observedGeneration: z.int().min(0).optional().describe('The generation last reconciled.'),
      })
      .describe('The observed state of a MachineClass (legacy shape).'),
  }).describe('A MachineClass (legacy v1alpha1 shape; stored as v1beta1).'),
)

/** A v1alpha1 MachineClass. */
export type MachineClassV1alpha1 = z.infer<ReturnType<typeof machineClassV1alpha1Schema>>
