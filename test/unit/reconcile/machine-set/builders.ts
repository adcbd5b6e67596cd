/** @module Fluent-ish builders of MachineSets and Machines for the planner and status tests. */
import { ANNOTATIONS } from '../../../../src/api/group'
import { formatInstanceNotice, type NoticeReason } from '../../../../src/api/instance-notice'
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

/** A Ready Machine of the set on instance i-<name>, with `reason` recorded, due `dueInMs` after t0. */
export function noticed(
  name: string,
  reason: NoticeReason,
  dueInMs?: number,
  options: {
    deleting?: boolean
    otherInstance?: boolean
    /** The instance's zone (spec.failureDomain and providerID; default eu-west-1a). */
    zone?: string
    /** status.providerStatus, as the EC2 provider records it. */
    providerStatus?: Record<string, unknown>
  } = {},
): MachineObject {
  const m = machine(name, { ready: true, deleting: options.deleting ?? false })
  const zone = options.zone ?? 'eu-west-1a'
  const instanceId = `i-0000000000000${name.padStart(4, '0')}`.slice(0, 19)
  const recorded = options.otherInstance ? 'i-0fffffffffffffff0' : instanceId
  return {
    ...m,
    metadata: {
      ...m.metadata,
      annotations: {
        [ANNOTATIONS.instanceNotice]: formatInstanceNotice({
          reason,
          instanceId: recorded,
          eventId: `event-${name}`,
          time: t0.toISOString(),
          ...(dueInMs === undefined
            ? {}
            : { deadline: new Date(t0.getTime() + dueInMs).toISOString() }),
        }),
      },
    },
    spec: {
      ...m.spec,
      providerID: `aws:///${zone}/${instanceId}`,
      ...(options.zone ? { failureDomain: zone } : {}),
    },
    ...(options.providerStatus
      ? { status: { ...m.status, providerStatus: options.providerStatus } }
      : {}),
  } as MachineObject
}
