/** @module MachineHealthCheck v1alpha1: the legacy shape (`remediationTemplate`, counters only in status). */
import { z } from 'zod'
import { durationSchema } from '../shared/duration-schema'
import { intOrPercentSchema } from '../shared/int-or-string-schema'
import { labelSelectorSchema } from '../shared/label-selector-schema'
import { lazySchema } from '../shared/lazy-schema'
import { typedReferenceSchema } from '../shared/meta'
import { resourceSchema } from '../shared/resource'
import { unhealthyConditionSchema } from '../v1beta1/machine-health-check'

/** The v1alpha1 MachineHealthCheck spec. */
export const machineHealthCheckSpecV1alpha1Schema = lazySchema(() =>
  z
    .object({
      selector: labelSelectorSchema().describe('Selects the Machines to check; must not be empty.'),
      unhealthyConditions: z
        .array(unhealthyConditionSchema())
        .max(100)
        .optional()
        .describe('Node conditions that mark a Machine unhealthy.'),
      nodeStartupTimeout: durationSchema('How long a Machine may run without a Node.').default(
        '10m',
      ),
      maxUnhealthy: intOrPercentSchema(
        'Remediation stops while more Machines than this are unhealthy.',
      ).default('100%'),
      remediationTemplate: typedReferenceSchema(
        'A template for external remediation requests.',
      ).optional(),
    })
    .describe('The desired state of a MachineHealthCheck (legacy shape).'),
)

/** The whole v1alpha1 MachineHealthCheck object. */
export const machineHealthCheckV1alpha1Schema = lazySchema(() =>
  resourceSchema({
    kind: 'MachineHealthCheck',
    version: 'v1alpha1',
    spec: machineHealthCheckSpecV1alpha1Schema(),
    status: z
      .object({
        expectedMachines: z.int().min(0).optional().describe('Machines the selector matches.'),
        currentHealthy: z.int().min(0).optional().describe('Machines currently healthy.'),
        remediationsAllowed: z.int().min(0).optional().describe('Remediations allowed now.'),
      })
      .describe('The observed state of a MachineHealthCheck (legacy shape).'),
  }).describe('A MachineHealthCheck (legacy v1alpha1 shape; stored as v1beta1).'),
)

/** A v1alpha1 MachineHealthCheck. */
export type MachineHealthCheckV1alpha1 = z.infer<
  ReturnType<typeof machineHealthCheckV1alpha1Schema>
>
