/** @module MachineSet v1alpha1: the legacy shape (v1alpha1 Machine template, errorReason/errorMessage). */
import { z } from 'zod'
import { labelSelectorSchema } from '../shared/label-selector-schema'
import { lazySchema } from '../shared/lazy-schema'
import { templateMetaSchema } from '../shared/meta'
import { resourceSchema } from '../shared/resource'
import { DELETE_POLICIES } from '../v1beta1/machine-set'
import { machineSpecV1alpha1Schema } from './machine'

/** A v1alpha1 Machine template. */
export const machineTemplateV1alpha1Schema = lazySchema(() =>
  z
    .object({
      metadata: templateMetaSchema(
        'Labels and annotations of the Machines; labels must match the selector.',
      ).optional(),
      spec: machineSpecV1alpha1Schema(),
    })
    .describe('The Machines to create.'),
)

/** Replica counters of the legacy set status. */
export function replicaStatusV1alpha1Fields() {
  return {
    replicas: z.int().min(0).optional().describe('Machines that exist and match the selector.'),
    readyReplicas: z.int().min(0).optional().describe('Machines whose Node is Ready.'),
    availableReplicas: z
      .int()
      .min(0)
      .optional()
      .describe('Machines Ready for at least minReadySeconds.'),
    selector: z
      .string()
      .max(4096)
      .optional()
      .describe('The selector as a string, for the scale subresource.'),
    observedGeneration: z.int().min(0).optional().describe('The generation last reconciled.'),
  }
}

/** The v1alpha1 MachineSet spec. */
export const machineSetSpecV1alpha1Schema = lazySchema(() =>
  z
    .object({
      replicas: z.int().min(0).max(100_000).optional().describe('Desired number of Machines.'),
      selector: labelSelectorSchema().describe(
        'Selects the Machines of this set; must match the template labels.',
      ),
      template: machineTemplateV1alpha1Schema(),
      deletePolicy: z.enum(DELETE_POLICIES).default('Random').describe('Random, Newest or Oldest.'),
      minReadySeconds: z
        .int()
        .min(0)
        .max(86_400)
        .default(0)
        .describe('Seconds a Machine must be Ready to count as available.'),
    })
    .describe('The desired state of a MachineSet (legacy shape).'),
)

/** The whole v1alpha1 MachineSet object. */
export const machineSetV1alpha1Schema = lazySchema(() =>
  resourceSchema({
    kind: 'MachineSet',
    version: 'v1alpha1',
    spec: machineSetSpecV1alpha1Schema(),
    status: z
      .object({
        ...replicaStatusV1alpha1Fields(),
        fullyLabeledReplicas: z
          .int()
          .min(0)
          .optional()
          .describe('Machines whose labels match the template labels.'),
        errorReason: z
          .string()
          .max(256)
          .optional()
          .describe('A terminal problem, machine-readable.'),
        errorMessage: z.string().max(10240).optional().describe('A terminal problem, for humans.'),
      })
      .describe('The observed state of a MachineSet (legacy shape).'),
  }).describe('A MachineSet (legacy v1alpha1 shape; stored as v1beta1).'),
)

/** A v1alpha1 MachineSet. */
export type MachineSetV1alpha1 = z.infer<ReturnType<typeof machineSetV1alpha1Schema>>
