/**
 * @module MachineDeployment v1alpha1 <-> v1beta1: rollbackTo, deletePolicy, phase, conditions and
 * lastProgressTime are hub-only.
 */
import type { z } from 'zod'
import type { machineDeploymentV1alpha1Schema } from '../v1alpha1/machine-deployment'
import type {
  machineDeploymentSpecSchema,
  machineDeploymentStatusSchema,
} from '../v1beta1/machine-deployment'
import { compact, dataObject } from './conversion-data'
import { replicaCounts, templateToHub, templateToV1alpha1 } from './machine-set'
import { nonEmpty, type SpokeConverter } from './spoke-converter'

type HubSpec = z.input<typeof machineDeploymentSpecSchema>
type HubStatus = z.input<typeof machineDeploymentStatusSchema>
type SpokeSpec = z.input<typeof machineDeploymentV1alpha1Schema>['spec']
type SpokeStatus = NonNullable<z.input<typeof machineDeploymentV1alpha1Schema>['status']>
type DeletePolicy = NonNullable<
  NonNullable<NonNullable<HubSpec['strategy']>['rollingUpdate']>['deletePolicy']
>

function strategyDown(strategy: HubSpec['strategy']): SpokeSpec['strategy'] {
  if (strategy === undefined) return undefined
  const rolling = strategy.rollingUpdate
  return compact({
    type: strategy.type,
    rollingUpdate:
      rolling === undefined
        ? undefined
        : compact({ maxSurge: rolling.maxSurge, maxUnavailable: rolling.maxUnavailable }),
  })
}

function strategyUp(strategy: SpokeSpec['strategy'], deletePolicy: unknown): HubSpec['strategy'] {
  if (strategy === undefined) return undefined
  const rolling = strategy.rollingUpdate
  const policy = typeof deletePolicy === 'string' ? (deletePolicy as DeletePolicy) : undefined
  return compact({
    type: strategy.type,
    rollingUpdate:
      rolling === undefined ? undefined : compact({ ...rolling, deletePolicy: policy }),
  })
}

/** The MachineDeployment converter. */
export const machineDeploymentConverter: SpokeConverter<
  HubSpec,
  HubStatus,
  SpokeSpec,
  SpokeStatus
> = {
  kind: 'MachineDeployment',
  specDown: (spec) => {
    const template = templateToV1alpha1(spec.template)
    return {
      value: compact({
        replicas: spec.replicas,
        selector: spec.selector,
        template: template.value,
        strategy: strategyDown(spec.strategy),
        minReadySeconds: spec.minReadySeconds,
        revisionHistoryLimit: spec.revisionHistoryLimit,
        paused: spec.paused,
        progressDeadlineSeconds: spec.progressDeadlineSeconds,
      }),
      data: {
        template: nonEmpty(template.data),
        rollbackTo: spec.rollbackTo,
        deletePolicy: spec.strategy?.rollingUpdate?.deletePolicy,
      },
    }
  },
  specUp: (spec, data) =>
    compact({
      replicas: spec.replicas,
      selector: spec.selector,
      template: templateToHub(spec.template, dataObject(data, 'template')),
      strategy: strategyUp(spec.strategy, data.deletePolicy),
      minReadySeconds: spec.minReadySeconds,
      revisionHistoryLimit: spec.revisionHistoryLimit,
      paused: spec.paused,
      progressDeadlineSeconds: spec.progressDeadlineSeconds,
      rollbackTo: data.rollbackTo as HubSpec['rollbackTo'],
    }),
  statusDown: (status) => ({
    value: compact({
      ...replicaCounts(status),
      updatedReplicas: status.updatedReplicas,
      unavailableReplicas: status.unavailableReplicas,
    }),
    data: {
      phase: status.phase,
      conditions: status.conditions,
      lastProgressTime: status.lastProgressTime,
    },
  }),
  statusUp: (status, data) =>
    compact({
      ...replicaCounts(status),
      updatedReplicas: status.updatedReplicas,
      unavailableReplicas: status.unavailableReplicas,
      phase: data.phase as HubStatus['phase'],
      conditions: data.conditions as HubStatus['conditions'],
      lastProgressTime: data.lastProgressTime as HubStatus['lastProgressTime'],
    }),
}
