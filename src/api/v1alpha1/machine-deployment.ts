/** @module MachineDeployment v1alpha1: the legacy shape (no rollbackTo, no per-strategy delete policy). */
import { z } from 'zod'
import { intOrPercentSchema } from '../shared/int-or-string-schema'
import { labelSelectorSchema } from '../shared/label-selector-schema'
import { lazySchema } from '../shared/lazy-schema'
import { resourceSchema } from '../shared/resource'
import { machineDeploymentSpecSchema } from '../v1beta1/machine-deployment'
import { machineTemplateV1alpha1Schema, replicaStatusV1alpha1Fields } from './machine-set'

/** The v1alpha1 MachineDeployment spec. */
export const machineDeploymentSpecV1alpha1Schema = lazySchema(() => {
  const hubSpec = machineDeploymentSpecSchema().shape
  return z
    .object({
      replicas: z.int().min(0).max(100_000).optional().describe('Desired number of Machines.'),
      selector: labelSelectorSchema().describe(
        'Selects the Machines of this deployment; must match the template labels.',
      ),
      template: machineTemplateV1alpha1Schema().describe(
        'The Machines to create; a change starts a rollout.',
      ),
      strategy: z
        .object({
          type: z
            .enum(['RollingUpdate', 'OnDelete'])
            .default('RollingUpdate')
            .describe('RollingUpdate or OnDelete.'),
          rollingUpdate: z
            .object({
              maxSurge: intOrPercentSchema('Machines that may exist above replicas.').optional(),
              maxUnavailable: intOrPercentSchema('Machines that may be unavailable.').optional(),
            })
            .optional()
            .describe('Parameters of a RollingUpdate.'),
        })
        .optional()
        .describe('The rollout strategy.'),
      // Same meaning and bounds in both versions: one definition.
      minReadySeconds: hubSpec.minReadySeconds,
      revisionHistoryLimit: hubSpec.revisionHistoryLimit,
      paused: hubSpec.paused,
      progressDeadlineSeconds: hubSpec.progressDeadlineSeconds,
    })
    .describe('The desired state of a MachineDeployment (legacy shape).')
})

/** The whole v1alpha1 MachineDeployment object. */
export const machineDeploymentV1alpha1Schema = lazySchema(() =>
  resourceSchema({
    kind: 'MachineDeployment',
    version: 'v1alpha1',
    spec: machineDeploymentSpecV1alpha1Schema(),
    status: z
      .object({
        ...replicaStatusV1alpha1Fields(),
        updatedReplicas: z
          .int()
          .min(0)
          .optional()
          .describe('Machines stamped from the current template.'),
        unavailableReplicas: z
          .int()
          .min(0)
          .optional()
          .describe('Machines still needed to reach replicas available.'),
      })
      .describe('The observed state of a MachineDeployment (legacy shape).'),
  }).describe('A MachineDeployment (legacy v1alpha1 shape; stored as v1beta1).'),
)

/** A v1alpha1 MachineDeployment. */
export type MachineDeploymentV1alpha1 = z.infer<ReturnType<typeof machineDeploymentV1alpha1Schema>>
