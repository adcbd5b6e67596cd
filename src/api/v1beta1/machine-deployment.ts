/** @module MachineDeployment v1beta1: rolls Machines out through MachineSets under a strategy. */
import { z } from 'zod'
import { timestampSchema } from '../shared/conditions'
import { countSchema } from '../shared/counts'
import { disruptionSchema } from '../shared/disruption-budget-schema'
import { intOrPercentSchema } from '../shared/int-or-string-schema'
import { labelSelectorSchema } from '../shared/label-selector-schema'
import { lazySchema } from '../shared/lazy-schema'
import { hubResourceSchema, hubStatusSchema } from '../shared/resource'
import { interruptionPolicySchema } from './interruption-policy'
import {
  DELETE_POLICIES,
  desiredReplicasSchema,
  machineTemplateSchema,
  replicaStatusFields,
} from './machine-set'

/** How a deployment replaces Machines when the template changes. */
export const deploymentStrategySchema = lazySchema(() =>
  z
    .object({
      type: z
        .enum(['RollingUpdate', 'OnDelete'])
        .default('RollingUpdate')
        .describe(
          'RollingUpdate replaces Machines gradually; OnDelete waits for users to delete them.',
        ),
      rollingUpdate: z
        .object({
          maxSurge: intOrPercentSchema(
            'Machines that may exist above replicas during a rollout.',
          ).optional(),
          maxUnavailable: intOrPercentSchema(
            'Machines that may be unavailable during a rollout.',
          ).optional(),
          deletePolicy: z
            .enum(DELETE_POLICIES)
            .optional()
            .describe('Which Machines of old sets go first: Random, Newest or Oldest.'),
        })
        .optional()
        .describe('Parameters of a RollingUpdate (only with type RollingUpdate).'),
    })
    .describe('The rollout strategy.'),
)

/** The v1beta1 MachineDeployment spec. */
export const machineDeploymentSpecSchema = lazySchema(() =>
  z
    .object({
      replicas: desiredReplicasSchema(),
      selector: labelSelectorSchema().describe(
        'Selects the Machines of this deployment; must match the template labels.',
      ),
      template: machineTemplateSchema().describe(
        'The Machines to create; a change starts a rollout.',
      ),
      strategy: deploymentStrategySchema().optional(),
      minReadySeconds: z
        .int()
        .min(0)
        .max(86_400)
        .default(0)
        .describe('Seconds a Machine must be Ready to count as available.'),
      revisionHistoryLimit: z
        .int()
        .min(0)
        .max(1000)
        .default(1)
        .describe('Old MachineSets to keep for rollback.'),
      paused: z.boolean().default(false).describe('Stop rolling out template changes while true.'),
      progressDeadlineSeconds: z
        .int()
        .min(1)
        .max(86_400 * 7)
        .default(600)
        .describe('Seconds a rollout may make no progress before it is reported as stalled.'),
      rolloutAfter: timestampSchema(
        'Replace the Machines created before this time once it passes: one rollout, as if the ' +
          'template had changed (within the strategy). Unset: no timed rollout.',
      ).optional(),
      rollbackTo: z
        .object({
          revision: z
            .int()
            .min(0)
            .describe('The revision to go back to; 0 means the previous one.'),
        })
        .optional()
        .describe('Requests a rollback; the controller clears it once done.'),
      disruption: disruptionSchema().optional(),
      interruption: interruptionPolicySchema()
        .optional()
        .describe(
          'What the sets do when EC2 announces that a Machine is going; copied to every set without a rollout.',
        ),
    })
    .describe('The desired state of a MachineDeployment.'),
)

/** The observed state of a MachineDeployment. */
export const machineDeploymentStatusSchema = lazySchema(() =>
  hubStatusSchema('MachineDeployment', {
    ...replicaStatusFields(),
    updatedReplicas: countSchema('Machines stamped from the current template.'),
    unavailableReplicas: countSchema('Machines still needed to reach replicas available.'),
    phase: z
      .enum(['ScalingUp', 'ScalingDown', 'Running', 'Failed'])
      .optional()
      .describe('ScalingUp, ScalingDown, Running or Failed.'),
    lastProgressTime: timestampSchema(
      'When the rollout last made progress; progressDeadlineSeconds is measured from it.',
    ).optional(),
  }),
)

/** A v1beta1 MachineDeployment. */
export type MachineDeployment = z.infer<ReturnType<typeof machineDeploymentSchema>>
/** The whole v1beta1 MachineDeployment object. */
export const machineDeploymentSchema = lazySchema(() =>
  hubResourceSchema('MachineDeployment', {
    spec: machineDeploymentSpecSchema(),
    status: machineDeploymentStatusSchema(),
  }).describe('A MachineDeployment: declarative rollouts of Machines.'),
)
