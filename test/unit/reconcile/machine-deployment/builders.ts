/** @module Builders of MachineDeployments and their MachineSets for planner and status tests. */
import {
  desiredMachineSet,
  type MachineDeploymentObject,
} from '../../../../src/reconcile/machine-deployment/machine-sets'
import { templateHash } from '../../../../src/reconcile/machine-deployment/template-hash'
import type { MachineSetObject } from '../../../../src/reconcile/machine-set/types'

export const now = new Date('2026-12-01T10:00:00Z')

/** A deployment `web` of `replicas` with class `cls`. */
export function deployment(
  replicas: number,
  cls = 'a',
  spec: Partial<MachineDeploymentObject['spec']> = {},
): MachineDeploymentObject {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineDeployment',
    metadata: { name: 'web', namespace: 'ns', uid: 'md-uid', generation: 2, resourceVersion: '5' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { classRef: { name: cls }, nodeDeletionTimeout: '10s' },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      minReadySeconds: 0,
      revisionHistoryLimit: 1,
      paused: false,
      progressDeadlineSeconds: 600,
      ...spec,
    },
  }
}

/**
 * The set the deployment with class `cls` would own, at `revision`, with `replicas` in spec and
 * `machines` / `available` in a status for its generation.
 */
export function setFor(
  cls: string,
  revision: number,
  replicas: number,
  machines = replicas,
  available = machines,
): MachineSetObject {
  const md = deployment(replicas, cls)
  const set = desiredMachineSet(md, templateHash(md.spec.template), revision, replicas)
  set.metadata.uid = `uid-${cls}`
  set.metadata.generation = 1
  set.status = {
    replicas: machines,
    availableReplicas: available,
    readyReplicas: available,
    observedGeneration: 1,
  }
  return set
}
