/** @module MachineSet v1beta1: keeps `replicas` Machines stamped from one template. */
import { z } from 'zod'
import { conditionsSchema } from '../shared/conditions'
import { labelSelectorSchema } from '../shared/label-selector'
import { templateMetaSchema } from '../shared/meta'
import { resourceSchema } from '../shared/resource'
import { machineSpecSchema } from './machine'

/** The template a set stamps Machines from. */
export const machineTemplateSchema = z
  .object({
    metadata: templateMetaSchema(
      'Labels and annotations of the Machines; labels must match the selector.',
    ).optional(),
    spec: machineSpecSchema,
  })
  .describe('The Machines to create.')

/** Which Machines go first on scale-down. */
export const DELETE_POLICIES = ['Random', 'Newest', 'Oldest'] as const

/** Replica counters shared by MachineSet and MachineDeployment status. */
export const replicaStatusFields = {
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

/** The v1beta1 MachineSet spec. */
export const machineSetSpecSchema = z
  .object({
    replicas: z
      .int()
      .min(0)
      .max(100_000)
      .optional()
      .describe('Desired number of Machines (scale subresource).'),
    selector: labelSelectorSchema.describe(
      'Selects the Machines of this set; must match the template labels. Immutable.',
    ),
    template: machineTemplateSchema,
    deletePolicy: z
      .enum(DELETE_POLICIES)
      .default('Random')
      .describe('Which Machines to delete first on scale-down: Random, Newest or Oldest.'),
    minReadySeconds: z
      .int()
      .min(0)
      .max(86_400)
      .default(0)
      .describe('Seconds a Machine must be Ready before it counts as available.'),
  })
  .describe('The desired state of a MachineSet.')

/** The observed state of a MachineSet. */
export const machineSetStatusSchema = z
  .object({
    ...replicaStatusFields,
    fullyLabeledReplicas: z
      .int()
      .min(0)
      .optional()
      .describe('Machines whose labels match the template labels.'),
    failureReason: z.string().max(256).optional().describe('A terminal problem, machine-readable.'),
    failureMessage: z.string().max(10240).optional().describe('A terminal problem, for humans.'),
    conditions: conditionsSchema('Current service state of the MachineSet.').optional(),
  })
  .describe('The observed state of a MachineSet.')

/** The whole v1beta1 MachineSet object. */
export const machineSetSchema = resourceSchema({
  kind: 'MachineSet',
  version: 'v1beta1',
  spec: machineSetSpecSchema,
  status: machineSetStatusSchema,
}).describe('A MachineSet: a number of identical Machines.')

/** A v1beta1 MachineSet. */
export type MachineSet = z.infer<typeof machineSetSchema>
