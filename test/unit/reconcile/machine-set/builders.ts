/** @module Fluent-ish builders of MachineSets and Machines for the planner and status tests. */
import type { MachineObject, MachineSetObject } from '../../../../src/reconcile/machine-set/types'

export const setUid = 'set-uid'
export const t0 = new Date('2026-12-01T10:00:00Z')

/** A MachineSet `workers` selecting `pool=a`. */
export function machineSet(
  replicas: number,
  extra: Partial<MachineSetObject['spec']> & { deleting?: boolean } = {},
): MachineSetObject {
  const { deleting, ...spec } = extra
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineSet',
    metadata: {
      name: 'workers',
      namespace: 'ns',
      uid: setUid,
      generation: 3,
      resourceVersion: '7',
      ...(deleting ? { deletionTimestamp: t0.toISOString() } : {}),
    },
    spec: {
      replicas,
      selector: { matchLabels: { pool: 'a' } },
      template: {
        metadata: { labels: { pool: 'a' } },
        spec: { classRef: { name: 'small' }, nodeDeletionTimeout: '10s' },
      },
      deletePolicy: 'Oldest',
      minReadySeconds: 0,
      ...spec,
    },
  }
}

export interface MachineOptions {
  owner?: string | null
  labels?: Record<string, string>
  ready?: boolean | string
  deleting?: boolean
  spec?: MachineObject['spec']
  /** Failed with this reason and message. */
  failed?: { reason: string; message: string }
}

/** A Machine `name` labelled `pool=a`, controlled by the set unless `owner` says otherwise. */
export function machine(name: string, options: MachineOptions = {}): MachineObject {
  const owner = options.owner === undefined ? setUid : options.owner
  const ready = options.ready
  const since = typeof ready === 'string' ? ready : t0.toISOString()
  return {
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      resourceVersion: '1',
      creationTimestamp: t0.toISOString(),
      labels: options.labels ?? { pool: 'a' },
      ...(owner === null
        ? {}
        : {
            ownerReferences: [
              {
                apiVersion: 'machine-api.dev/v1beta1',
                kind: 'MachineSet',
                name: 'x',
                uid: owner,
                controller: true,
              },
            ],
          }),
      ...(options.deleting ? { deletionTimestamp: t0.toISOString() } : {}),
    },
    spec: options.spec ?? { classRef: { name: 'small' }, nodeDeletionTimeout: '10s' },
    status: ready
      ? {
          phase: 'Running',
          nodeRef: { name: `node-${name}` },
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'NodeReady',
              message: '',
              lastTransitionTime: since,
            },
          ],
        }
      : options.failed
        ? {
            phase: 'Failed',
            failureReason: options.failed.reason,
            failureMessage: options.failed.message,
          }
        : { phase: 'Provisioning' },
  }
}
