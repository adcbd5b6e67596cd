/** @module MachineHealthCheck v1beta1: which Machines are unhealthy and how they are remediated. */
import { z } from 'zod'
import { countSchema, observedGenerationSchema } from '../shared/counts'
import { durationSchema } from '../shared/duration-schema'
import { intOrPercentSchema } from '../shared/int-or-string-schema'
import { labelSelectorSchema } from '../shared/label-selector-schema'
import { lazySchema } from '../shared/lazy-schema'
import { typedReferenceSchema } from '../shared/meta'
import { hubResourceSchema, hubStatusSchema } from '../shared/resource'

/** A Node condition that, held for `timeout`, makes the Machine unhealthy. */
export const unhealthyConditionSchema = lazySchema(() =>
  z
    .object({
      type: z.string().min(1).max(316).describe('Node condition type, e.g. Ready.'),
      status: z.enum(['True', 'False', 'Unknown']).describe('The status that counts as unhealthy.'),
      timeout: durationSchema('How long the condition must hold before the Machine is unhealthy.'),
    })
    .describe('A Node condition that marks the Machine unhealthy once it lasts long enough.'),
)

/** A condition of the Machine itself that, held for `timeout`, makes the Machine unhealthy. */
export const unhealthyMachineConditionSchema = lazySchema(() =>
  z
    .object({
      type: z
        .string()
        .min(1)
        .max(316)
        .describe(
          'Machine condition type, e.g. StatusChecksPassed (EC2 status checks) or InstanceHealthy (EC2 notices). Not HealthCheckSucceeded, which the health check itself sets.',
        ),
      status: z.enum(['True', 'False', 'Unknown']).describe('The status that counts as unhealthy.'),
      timeout: durationSchema('How long the condition must hold before the Machine is unhealthy.'),
    })
    .describe(
      "A condition in the Machine's own status.conditions that marks it unhealthy once it lasts long enough.",
    ),
)

/** The v1beta1 MachineHealthCheck spec. */
export const machineHealthCheckSpecSchema = lazySchema(() =>
  z
    .object({
      selector: labelSelectorSchema().describe('Selects the Machines to check; must not be empty.'),
      unhealthyConditions: z
        .array(unhealthyConditionSchema())
        .max(100)
        .optional()
        .describe('Node conditions that mark a Machine unhealthy.'),
      unhealthyMachineConditions: z
        .array(unhealthyMachineConditionSchema())
        .max(100)
        .optional()
        .describe(
          "Conditions of the Machine itself (status.conditions) that mark it unhealthy, checked whether or not it has a Node; as Cluster API v1.12's field of the same name.",
        ),
      nodeStartupTimeout: durationSchema(
        'How long a Machine may run without a Node before it is unhealthy; 0 disables, else at least 30s.',
      ).default('10m'),
      maxUnhealthy: intOrPercentSchema(
        'Remediation stops while more Machines than this are unhealthy.',
      ).default('100%'),
      remediation: z
        .object({
          externalTemplateRef: typedReferenceSchema(
            'A template for external remediation requests; without it, set-owned Machines are deleted.',
          ).optional(),
          maxInFlight: intOrPercentSchema(
            'At most this many Machines are being remediated at once (deleting or handed off); unset means no limit. A percentage of the expected Machines rounds up.',
          ).optional(),
        })
        .optional()
        .describe('How unhealthy Machines are remediated.'),
    })
    .describe('The desired state of a MachineHealthCheck.'),
)

/** The observed state of a MachineHealthCheck. */
export const machineHealthCheckStatusSchema = lazySchema(() =>
  hubStatusSchema('MachineHealthCheck', {
    expectedMachines: countSchema('Machines the selector matches.'),
    currentHealthy: countSchema('Machines currently healthy.'),
    remediationsAllowed: countSchema('Remediations allowed before maxUnhealthy stops them.'),
    targets: z
      .array(z.string().max(253).describe('A Machine name.'))
      .max(10_000)
      .optional()
      .describe('Names of the checked Machines, sorted.'),
    observedGeneration: observedGenerationSchema(),
  }),
)

/** A v1beta1 MachineHealthCheck. */
export type MachineHealthCheck = z.infer<ReturnType<typeof machineHealthCheckSchema>>
/** The whole v1beta1 MachineHealthCheck object. */
export const machineHealthCheckSchema = lazySchema(() =>
  hubResourceSchema('MachineHealthCheck', {
    spec: machineHealthCheckSpecSchema(),
    status: machineHealthCheckStatusSchema(),
  }).describe('A MachineHealthCheck: detects and remediates unhealthy Machines.'),
)
