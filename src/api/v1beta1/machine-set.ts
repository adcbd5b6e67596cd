/** @module MachineSet v1beta1: keeps `replicas` Machines stamped from one template. */
import { z } from 'zod'
import { timestampSchema } from '../shared/conditions'
import { countSchema, observedGenerationSchema } from '../shared/counts'
import { labelSelectorSchema } from '../shared/label-selector-schema'
import { lazySchema } from '../shared/lazy-schema'
import { templateMetaSchema } from '../shared/meta'
import { hubResourceSchema, hubStatusSchema } from '../shared/resource'
import { interruptionPolicySchema } from './interruption-policy'
import { machineSpecSchema } from './machine'

/** The template a set stamps Machines from. */
export const machineTemplateSchema = lazySchema(() =>
  z
    .object({
      metadata: templateMetaSchema(
        'Labels and annotations of the Machines; labels must match the selector.',
      ).optional(),
      spec: machineSpecSchema(),
    })
    .describe('The Machines to create.'),
)

/** Which Machines go first on scale-down. */
export const DELETE_POLICIES = ['Random', 'Newest', 'Oldest'] as const

/** The desired number of Machines of a MachineSet or MachineDeployment. */
export const desiredReplicasSchema = lazySchema(() =>
  z
    .int()
    .min(0)
    .max(100_000)
    .optional()
    .describe('Desired number of Machines (scale subresource).'),
)

/** Replica counters shared by MachineSet and MachineDeployment status. */
export function replicaStatusFields() {
  return {
    replicas: countSchema('Machines that exist and match the selector.'),
    readyReplicas: countSchema('Machines whose Node is Ready.'),
    availableReplicas: countSchema('Machines Ready for at least minReadySeconds.'),
    selector: z
      .string()
      .max(4096)
      .optional()
      .describe('The selector as a string, for the scale subresource.'),
    observedGeneration: observedGenerationSchema(),
  }
}

/** The v1beta1 MachineSet spec. */
export const machineSetSpecSchema = lazySchema(() =>
  z
    .object({
      replicas: desiredReplicasSchema(),
      selector: labelSelectorSchema().describe(
        'Selects the Machines of this set; must match the template labels. Immutable.',
      ),
      template: machineTemplateSchema(),
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
      interruption: interruptionPolicySchema().optional(),
    })
    .describe('The desired state of a MachineSet.'),
)

/** The pace at which a MachineSet replaces its Failed Machines. */
export const replacementBackoffSchema = lazySchema(() =>
  z
    .object({
      consecutiveFailures: z
        .int()
        .min(0)
        .describe(
          'Rounds of replacing Failed Machines since a Machine of the set last turned Ready.',
        ),
      lastReplacementTime: timestampSchema('When Failed Machines were last replaced.').optional(),
      nextReplacementTime: timestampSchema(
        'Failed Machines are not replaced before this time (exponential backoff).',
      ).optional(),
      classGeneration: z
        .int()
        .min(0)
        .optional()
        .describe(
          "The generation of the template's MachineClass at the last round: a class changed since is replaced at once.",
        ),
    })
    .describe(
      'Backoff of replacing Failed Machines, so a configuration failure is no create/delete loop.',
    ),
)

/** The template's MachineClass as the set last read it: what its runs use without a GET. */
export const templateClassRecordSchema = lazySchema(() =>
  z
    .object({
      name: z.string().max(253).describe('The MachineClass the template named.'),
      zones: z
        .array(z.string().max(128).describe('A zone, e.g. eu-west-1a.'))
        .max(64)
        .optional()
        .describe(
          'The zones of that class that could host a new Machine then; new Machines are spread over them.',
        ),
    })
    .describe(
      "The template's MachineClass as last read (or handed over on its change or a sweep), so that a scale reads no class.",
    ),
)

/** Names a pass of the set handed out at once, by index: from <= index < to. */
export const nameClaimSchema = lazySchema(() =>
  z
    .object({
      from: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1)
        .describe('The first index handed out.'),
      to: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1)
        .describe('One past the last index handed out.'),
      at: timestampSchema('When they were handed out.'),
      done: z
        .boolean()
        .optional()
        .describe(
          'Set once the pass ran the creates of these names: a name without a Machine then no longer counts as one being created.',
        ),
    })
    .describe('Machine names a pass handed out, before creating their Machines.'),
)

/** The observed state of a MachineSet. */
export const machineSetStatusSchema = lazySchema(() =>
  hubStatusSchema('MachineSet', {
    ...replicaStatusFields(),
    fullyLabeledReplicas: countSchema('Machines whose labels match the template labels.'),
    failureReason: z.string().max(256).optional().describe('A terminal problem, machine-readable.'),
    failureMessage: z.string().max(10240).optional().describe('A terminal problem, for humans.'),
    replacement: replacementBackoffSchema().optional(),
    templateClass: templateClassRecordSchema().optional(),
    zoneSpread: z
      .string()
      .max(4096)
      .optional()
      .describe(
        'Machines not being deleted per zone, e.g. eu-west-1a=2,eu-west-1b=2 (kubectl get -o wide shows it).',
      ),
    nextMachineIndex: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional()
      .describe(
        'How many Machine names the set has handed out. New Machines take the next ones, so a name is never used twice in the life of the set.',
      ),
    nameClaims: z
      .array(nameClaimSchema())
      .max(32)
      .optional()
      .describe(
        'The names handed out in the last 90 s: until the pass that took them is done, a name of these that no Machine has yet counts as a Machine being created, so a concurrent pass does not create another in its place.',
      ),
  }),
)

/** A v1beta1 MachineSet. */
export type MachineSet = z.infer<ReturnType<typeof machineSetSchema>>
/** The whole v1beta1 MachineSet object. */
export const machineSetSchema = lazySchema(() =>
  hubResourceSchema('MachineSet', {
    spec: machineSetSpecSchema(),
    status: machineSetStatusSchema(),
  }).describe('A MachineSet: a number of identical Machines.'),
)
