/** Observations of the Machine controller for planner and status tests. */
import type { V1Node } from '@kubernetes/client-node'
import type { Machine } from '../../../../src/api/v1beta1/machine'
import { machineFinalizer } from '../../../../src/reconcile/machine/machine-deps'
import type { MachineObservation } from '../../../../src/reconcile/machine/observation'

export const now = new Date('2026-12-02T12:00:00Z')
export const earlier = '2026-12-01T00:00:00.000Z'

/** A kwok Machine with the controller's finalizer. */
export function machine(
  extra: {
    providerID?: string
    deleting?: boolean
    finalizer?: boolean
    status?: Machine['status']
    annotations?: Record<string, string>
    labels?: Record<string, string>
    spec?: Partial<Machine['spec']>
  } = {},
): Machine {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: {
      name: 'm',
      namespace: 'ns',
      uid: 'uid-m',
      generation: 3,
      resourceVersion: '7',
      ...(extra.finalizer === false ? {} : { finalizers: [machineFinalizer] }),
      ...(extra.deleting ? { deletionTimestamp: earlier } : {}),
      ...(extra.annotations ? { annotations: extra.annotations } : {}),
      ...(extra.labels ? { labels: extra.labels } : {}),
    } as Machine['metadata'],
    spec: {
      providerSpec: { provider: 'kwok', value: {} },
      nodeDeletionTimeout: '10s',
      ...(extra.providerID ? { providerID: extra.providerID } : {}),
      ...extra.spec,
    },
    ...(extra.status ? { status: extra.status } : {}),
  }
}

/** A Node with `conditions`. */
export function node(
  conditions: Array<{ type: string; status: string; message?: string }>,
  name = 'n1',
): V1Node {
  return {
    metadata: { name, uid: 'u1' },
    spec: { providerID: 'kwok://ns/m' },
    status: { conditions, nodeInfo: { kubeletVersion: 'v1.37.2' } as never },
  }
}

export const readyNode = node([{ type: 'Ready', status: 'True' }])

/** An observation of `m`: nothing asked, no Node looked up, unless `extra` says otherwise. */
export function observed(m: Machine, extra: Partial<MachineObservation> = {}): MachineObservation {
  return {
    machine: m,
    instance: { state: 'not-asked' },
    node: { state: 'not-looked-up' },
    ...extra,
  }
}

/** The kwok instance of `m`. */
export const kwokInstance = {
  state: 'present' as const,
  result: {
    providerID: 'kwok://ns/m',
    addresses: [{ type: 'Hostname' as const, address: 'n1' }],
    providerStatus: {},
  },
}
