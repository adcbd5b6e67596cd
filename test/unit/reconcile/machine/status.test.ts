import { describe, expect, it } from 'vitest'
import { planMachine } from '../../../../src/reconcile/machine/plan'
import {
  computeMachineStatus,
  machinePhase,
  nodeHealthyCondition,
} from '../../../../src/reconcile/machine/status'
import { earlier, kwokInstance, machine, node, now, observed, readyNode } from './builders'

const linked = { state: 'found' as const, node: readyNode, linked: true }

describe('machinePhase', () => {
  it.each([
    ['nothing yet', observed(machine()), {}, 'Pending'],
    [
      'a transient provider problem before any instance',
      observed(machine()),
      { infrastructureProblem: { reason: 'X', message: '' } },
      'Provisioning',
    ],
    [
      'a providerID but no Node',
      observed(machine({ providerID: 'kwok://ns/m' })),
      {},
      'Provisioned',
    ],
    [
      'an instance found but not recorded yet',
      observed(machine(), { instance: kwokInstance }),
      {},
      'Provisioned',
    ],
    ['a linked Node', observed(machine({ providerID: 'p' }), { node: linked }), {}, 'Running'],
    [
      'a permanent failure',
      observed(machine()),
      { failure: { reason: 'Bad', message: '' } },
      'Failed',
    ],
    [
      'a deletion, whatever else',
      observed(machine({ deleting: true })),
      { failure: { reason: 'Bad', message: '' } },
      'Deleting',
    ],
  ])('%s -> %s', (_name, obs, plan, phase) => {
    expect(machinePhase({ obs, plan: { events: [], ...plan } })).toBe(phase)
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
    const obs = observed(machine({ providerID: 'kwok://ns/m' }), {
      node: linked,
      instance: kwokInstance,
    })
    const status = computeMachineStatus(obs, { events: [] }, now)
    expect(status).toMatchObject({
      phase: 'Running',
      nodeRef: { name: 'n1', uid: 'u1' },
      addresses: [{ type: 'Hostname', address: 'n1' }],
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
    const status = computeMachineStatus(observed(previous, { node: linked }), { events: [] }, now)
    expect(status.conditions?.find((c) => c.type === 'NodeHealthy')?.lastTransitionTime).toBe(
      earlier,
    )
    expect(status.lastUpdated).toBe(earlier)
  })

  it('names the first problem in Ready: infrastructure before the Node', () => {
    const obs = observed(machine(), {
      providerProblem: { reason: 'MachineClassNotFound', message: 'create it' },
    })
    const ready = computeMachineStatus(obs, { events: [] }, now).conditions?.find(
      (c) => c.type === 'Ready',
    )
    expect(ready).toMatchObject({
      status: 'False',
      reason: 'MachineClassNotFound',
      message: 'create it',
    })
  })

  it('reports a permanent failure in failureReason and InfrastructureReady', () => {
    const failure = { reason: 'InvalidInstanceType', message: 'm9.huge does not exist' }
    const status = computeMachineStatus(observed(machine()), { events: [], failure }, now)
    expect(status).toMatchObject({ phase: 'Failed', failureReason: 'InvalidInstanceType' })
    expect(status.conditions?.find((c) => c.type === 'InfrastructureReady')).toMatchObject({
      status: 'False',
      ...failure,
    })
  })

  it('reports the deletion stage, the drain in progress and the timers started', () => {
    const obs = observed(machine({ deleting: true }), {
      deletion: {
        drained: false,
        volumesDetached: false,
        attachedVolumes: [],
        drainProgress: '1 pod',
        startedTimers: { nodeDrainStartTime: now.toISOString() },
      },
    })
    const deleting = { reason: 'DrainingNode', message: 'Draining Node n1: 1 pod' }
    const status = computeMachineStatus(obs, { events: [], deleting }, now)
    const conditions = status.conditions ?? []
    expect(conditions.find((c) => c.type === 'Deleting')).toMatchObject({
      status: 'True',
      reason: 'DrainingNode',
    })
    expect(conditions.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'Deleting',
    })
    expect(conditions.find((c) => c.type === 'Drained')).toMatchObject({
      status: 'False',
      reason: 'Draining',
      message: '1 pod',
    })
    expect(status.deletion).toEqual({ nodeDrainStartTime: now.toISOString() })
  })

  describe('a read of the recorded instance that failed (throttled, timed out) keeps the last known state', () => {
    const running = machine({
      providerID: 'kwok://ns/m',
      status: {
        phase: 'Running',
        addresses: [{ type: 'Hostname', address: 'n1' }],
        conditions: [
          {
            type: 'InfrastructureReady',
            status: 'True',
            reason: 'InstanceReady',
            message: 'Instance kwok://ns/m',
            lastTransitionTime: earlier,
          },
          {
            type: 'Ready',
            status: 'True',
            reason: 'Ready',
            message: '',
            lastTransitionTime: earlier,
          },
        ],
      },
    })
    const timedOut = {
      reason: 'ProviderTimeout',
      message: 'EC2 DescribeInstances did not answer within 30 s',
    }
    const failedRead = observed(running, {
      node: linked,
      instance: {
        state: 'failed',
        failure: { ...timedOut, permanent: false },
      },
    })
    const status = computeMachineStatus(failedRead, { events: [], readProblem: timedOut }, now)
    const condition = (type: string) => status.conditions?.find((c) => c.type === type)

    it.each([
      ['Ready', { status: 'True', reason: 'Ready', lastTransitionTime: earlier }],
      [
        'InfrastructureReady',
        { status: 'True', reason: 'InstanceReady', lastTransitionTime: earlier },
      ],
      ['InstanceObserved', { status: 'False', reason: 'ProviderTimeout' }],
    ])('%s', (type, expected) => {
      expect(condition(type)).toMatchObject(expected)
    })

    it('planned and written as a reconcile does: Ready stays True', () => {
      const settings = { claimTtlMs: 150_000, deletionRetryMs: 10_000, nodeLookupRetryMs: 15_000 }
      const written = computeMachineStatus(failedRead, planMachine(failedRead, now, settings), now)
      expect(written.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'True' })
      expect(written.phase).toBe('Running')
    })

    it('stays Running and writes no addresses or providerStatus over the last ones', () => {
      expect(status.phase).toBe('Running')
      expect(status).not.toHaveProperty('addresses')
      expect(status).not.toHaveProperty('providerStatus')
    })

    it('InstanceObserved turns True at the next good read', () => {
      const after = machine({
        providerID: 'kwok://ns/m',
        status: { conditions: status.conditions ?? [] },
      })
      const next = computeMachineStatus(
        observed(after, { node: linked, instance: kwokInstance }),
        { events: [] },
        now,
      )
      expect(next.conditions?.find((c) => c.type === 'InstanceObserved')).toMatchObject({
        status: 'True',
        reason: 'InstanceRead',
      })
    })
  })
})
