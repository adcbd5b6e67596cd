/**
 * @module MachineDeployment v1alpha1 <-> v1beta1: rollbackTo, rolloutAfter, deletePolicy,
 * disruption, interruption, phase, conditions and lastProgressTime are hub-only.
 */
import type { machineDeploymentV1alpha1Schema } from '../v1alpha1/machine-deployment'
import type { machineDeploymentSchema } from '../v1beta1/machine-deployment'
import { compact, isRecord } from './conversion-data'
import { replicaCounts, replicatedSpecDown, replicatedSpecUp } from './machine-set'
import type { ConverterOf, Versions } from './spoke-converter'

type Types = Versions<
  ReturnType<typeof machineDeploymentSchema>,
  ReturnType<typeof machineDeploymentV1alpha1Schema>
>
type DeletePolicy = NonNullable<
  NonNullable<NonNullable<Types['hubSpec']['strategy']>['rollingUpdate']>['deletePolicy']
>

function strategyDown(strategy: Types['hubSpec']['strategy']): Types['spokeSpec']['strategy'] {
  if (!isRecord(strategy)) return strategy as Types['spokeSpec']['strategy']
  const rolling = strategy.rollingUpdate
  return compact({
    type: strategy.type,
    rollingUpdate: !isRecord(rolling)
      ? (rolling as undefined)
      : compact({ maxSurge: rolling.maxSurge, maxUnavailable: rolling.maxUnavailable }),
  })
}

function strategyUp(
  strategy: Types['spokeSpec']['strategy'],
  deletePolicy: unknown,
): Types['hubSpec']['strategy'] {
  if (!isRecord(strategy)) return strategy as Types['hubSpec']['strategy']
  const rolling = strategy.rollingUpdate
  const policy = typeof deletePolicy === 'string' ? (deletePolicy as DeletePolicy) : undefined
  return compact({
    type: strategy.type,
    rollingUpdate: !isRecord(rolling)
      ? (rolling as undefined)
      : compact({ ...rolling, deletePolicy: policy }),
  })
}

/** The MachineDeployment converter. */
export const machineDeploymentConverter: ConverterOf<Types> = {
  kind: 'MachineDeployment',
  specDown: (spec) => {
    const replicated = replicatedSpecDown(spec)
    return {
      value: compact({
        ...replicated.value,
        strategy: strategyDown(spec.strategy),
        revisionHistoryLimit: spec.revisionHistoryLimit,
        paused: spec.paused,
        progressDeadlineSeconds: spec.progressDeadlineSeconds,
      }),
      data: {
        ...replicated.data,
        rollbackTo: spec.rollbackTo,
        disruption: spec.disruption,
        interruption: spec.interruption,
        rolloutAfter: spec.rolloutAfter,
        deletePolicy: isRecord(spec.strategy?.rollingUpdate)
          ? spec.strategy.rollingUpdate.deletePolicy
          : undefined,
      },
    }
  },
  specUp: (spec, data) =>
    compact({
      ...replicatedSpecUp(spec, data),
      strategy: strategyUp(spec.strategy, data.deletePolicy),
      revisionHistoryLimit: spec.revisionHistoryLimit,
      paused: spec.paused,
      progressDeadlineSeconds: spec.progressDeadlineSeconds,
      rollbackTo: data.rollbackTo as Types['hubSpec']['rollbackTo'],
      disruption: data.disruption as Types['hubSpec']['disruption'],
      interruption: data.interruption as Types['hubSpec']['interruption'],
      rolloutAfter: typeof data.rolloutAfter === 'string' ? data.rolloutAfter : undefined,
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
      phase: data.phase as Types['hubStatus']['phase'],
      conditions: data.conditions as Types['hubStatus']['conditions'],
      lastProgressTime: data.lastProgressTime as Types['hubStatus']['lastProgressTime'],
    }),
}
