import type { V1Node } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import type { Machine } from '../../../../src/api/v1beta1/machine'
import { newScope } from '../../../../src/reconcile/machine/machine-scope'
import {
  computeMachineStatus,
  machinePhase,
  nodeHealthyCondition,
} from '../../../../src/reconcile/machine/status'

const now = new Date('2026-12-02T12:00:00Z')
const earlier = '2026-12-01T00:00:00.000Z'

function machine(
  extra: { providerID?: string; deleting?: boolean; status?: Machine['status'] } = {},
): Machine {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: {
      name: 'm',
      namespace: 'ns',
      generation: 3,
      ...(extra.deleting ? { deletionTimestamp: earlier } : {}),
    },
    spec: {
      providerSpec: { provider: 'kwok', value: {} },
      nodeDeletionTimeout: '10s',
      ...(extra.providerID ? { providerID: extra.providerID } : {}),
    },
    ...(extra.status ? { status: extra.status } : {}),
  }
}

function node(conditions: Array<{ type: string; status: string; message?: string }>): V1Node {
  return {
    metadata: { name: 'n1', uid: 'u1' },
    status: { conditions, nodeInfo: { kubeletVersion: 'v1.37.2' } as never },
  }
}

const readyNode = node([{ type: 'Ready', status: 'True' }])

describe('machinePhase', () => {
  it.each([
    ['nothing yet', newScope(machine(), now), 'Pending'],
    [
      'a transient provider problem before any instance',
      { ...newScope(machine(), now), infrastructureProblem: { reason: 'X', message: '' } },
      'Provisioning',
    ],
    [
      'a providerID but no Node',
      newScope(machine({ providerID: 'kwok://ns/m' }), now),
      'Provisioned',
    ],
    [
      'a linked Node',
      { ...newScope(machine({ providerID: 'p' }), now), node: readyNode },
      'Running',
    ],
    [
      'a permanent failure',
      { ...newScope(machine(), now), failure: { reason: 'Bad', message: '' } },
      'Failed',
    ],
    [
      'a deletion, whatever else',
      { ...newScope(machine({ deleting: true }), now), failure: { reason: 'Bad', message: '' } },
      'Deleting',
    ],
  ])('%s -> %s', (_name, scope, phase) => {
    expect(machinePhase(scope)).toBe(phase)
  })
})

describe('nodeHealthyCondition', () => {
  it.each([
    ['a Ready Node', readyNode, false, 'True', 'NodeReady'],
    [
      'a NotReady Node',
      node([{ type: 'Ready', status: 'False', message: 'kubelet down' }]),
      false,
      'False',
      'NodeNotReady',
    ],
    [
      'an unreachable Node',
      node([{ type: 'Ready', status: 'Unknown' }]),
      false,
      'False',
      'NodeUnreachable',
    ],
    [
      'memory pressure',
      node([
        { type: 'Ready', status: 'True' },
        { type: 'MemoryPressure', status: 'True' },
      ]),
      false,
      'False',
      'NodePressure',
    ],
    ['no Node yet', undefined, false, 'Unknown', 'WaitingForNode'],
    ['a deleted Node', undefined, true, 'False', 'NodeNotFound'],
  ])('%s', (_name, n, gone, status, reason) => {
    expect(nodeHealthyCondition(n, gone)).toMatchObject({ status, reason })
  })
})

describe('computeMachineStatus', () => {
  it('reports Ready with nodeRef, kubelet version and observedGeneration for a healthy Machine', () => {
    const scope = {
      ...newScope(machine({ providerID: 'kwok://ns/m' }), now),
      node: readyNode,
      infrastructure: {
        providerID: 'kwok://ns/m',
        addresses: [{ type: 'Hostname' as const, address: 'n1' }],
        providerStatus: {},
      },
    }
    const status = computeMachineStatus(scope)
    expect(status).toMatchObject({
      phase: 'Running',
      nodeRef: { name: 'n1', uid: 'u1' },
      versions: { kubelet: 'v1.37.2' },
      observedGeneration: 3,
      failureReason: null,
    })
    expect(status.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'True',
      reason: 'Ready',
    })
  })

  it('keeps lastTransitionTime while a condition keeps its status', () => {
    const previous = machine({
      providerID: 'p',
      status: {
        phase: 'Running',
        lastUpdated: earlier,
        conditions: [
          {
            type: 'NodeHealthy',
            status: 'True',
            reason: 'NodeReady',
            message: '',
            lastTransitionTime: earlier,
          },
        ],
      },
    })
    const status = computeMachineStatus({ ...newScope(previous, now), node: readyNode })
    expect(status.conditions?.find((c) => c.type === 'NodeHealthy')?.lastTransitionTime).toBe(
      earlier,
    )
    expect(status.lastUpdated).toBe(earlier)
  })

  it('names the first problem in Ready: infrastructure before the Node', () => {
    const scope = {
      ...newScope(machine(), now),
      providerProblem: { reason: 'MachineClassNotFound', message: 'create it' },
    }
    const ready = computeMachineStatus(scope).conditions?.find((c) => c.type === 'Ready')
    expect(ready).toMatchObject({
      status: 'False',
      reason: 'MachineClassNotFound',
      message: 'create it',
    })
  })

  it('reports the deletion stage while deleting', () => {
    const scope = {
      ...newScope(machine({ deleting: true }), now),
      deleting: { reason: 'DrainingNode', message: 'Draining Node n1: Evicted a/b' },
    }
    const conditions = computeMachineStatus(scope).conditions ?? []
    expect(conditions.find((c) => c.type === 'Deleting')).toMatchObject({
      status: 'True',
      reason: 'DrainingNode',
    })
    expect(conditions.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'Deleting',
    })
  })
})
