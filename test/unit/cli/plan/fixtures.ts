/** @module Builders for plan simulation tests: a deployment, its set and Ready Machines. */
import { defaultObject } from '../../../../src/api/defaults/default-object'
import type { MachineDeploymentObject } from '../../../../src/reconcile/machine-deployment/machine-sets'
import { desiredMachineSet } from '../../../../src/reconcile/machine-deployment/machine-sets'
import { templateHash } from '../../../../src/reconcile/machine-deployment/template-hash'
import { machineNameForIndex } from '../../../../src/reconcile/machine-set/machine-names'
import { desiredMachine } from '../../../../src/reconcile/machine-set/machine-template'
import type { MachineObject, MachineSetObject } from '../../../../src/reconcile/machine-set/types'

/** A RollingUpdate deployment `workers` in `ns` with class `machineClass`. */
export function deployment(
  machineClass: string,
  options: { replicas?: number; maxSurge?: number; maxUnavailable?: number } = {},
): MachineDeploymentObject {
  // Defaulted as the webhook (and `plan`) would.
  const raw = {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineDeployment',
    metadata: { name: 'workers', namespace: 'ns', uid: 'md-uid', generation: 2 },
    spec: {
      replicas: options.replicas ?? 3,
      selector: { matchLabels: { md: 'workers' } },
      template: {
        metadata: { labels: { md: 'workers' } },
        spec: { classRef: { name: machineClass } },
      },
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: {
          maxSurge: options.maxSurge ?? 1,
          maxUnavailable: options.maxUnavailable ?? 0,
          deletePolicy: 'Oldest',
        },
      },
      revisionHistoryLimit: 1,
      minReadySeconds: 0,
      progressDeadlineSeconds: 600,
    },
  }
  return defaultObject('MachineDeployment', raw, undefined) as unknown as MachineDeploymentObject
}

/** The set `md` made for its template `machineClass` at `revision`, with `replicas`. */
export function existingSet(
  md: MachineDeploymentObject,
  machineClass: string,
  revision: number,
  replicas: number,
): MachineSetObject {
  const template = {
    ...md.spec.template,
    spec: { ...md.spec.template.spec, classRef: { name: machineClass } },
  }
  const set = desiredMachineSet(
    { ...md, spec: { ...md.spec, template } },
    templateHash(template),
    revision,
    replicas,
  )
  set.metadata.uid = `uid-${set.metadata.name}`
  set.metadata.generation = 1
  return set
}

/** `count` Ready Machines of `set`, in slot order, created a minute apart (oldest first). */
export function readyMachines(set: MachineSetObject, count: number): MachineObject[] {
  return Array.from({ length: count }, (_, i) => {
    const machine = desiredMachine(
      set,
      machineNameForIndex(set.metadata.name, set.metadata.uid ?? '', i),
    )
    const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString()
    machine.metadata.uid = `uid-${machine.metadata.name}`
    machine.metadata.creationTimestamp = at
    machine.status = {
      phase: 'Running',
      nodeRef: { name: `node-${i}` },
      conditions: [
        { type: 'Ready', status: 'True', reason: 'NodeReady', message: '', lastTransitionTime: at },
      ],
    } as MachineObject['status']
    return machine
  })
}
