import { describe, expect, it } from 'vitest'
import type { Target } from '../../../../src/reconcile/machine-health-check/target'
import {
  evaluateTargets,
  provisionedAtMs,
  type TargetHealth,
} from '../../../../src/reconcile/machine-health-check/targets'
import {
  ago,
  linked,
  machine,
  minute,
  nodeCondition,
  notReady,
  now,
  nowMs,
  rules,
} from './builders'

const second = 1000
const hour = 60 * minute

describe('evaluateTargets', () => {
  it.each<[string, Target, Partial<TargetHealth> & { state: TargetHealth['state'] }]>([
    ['a Ready Node is healthy', linked('a'), { state: 'healthy' }],
    [
      'NotReady for less than the timeout is pending until the crossing',
      notReady('a', 4 * minute),
      { state: 'pending', type: 'Ready', status: 'False', deadlineMs: nowMs + minute },
    ],
    [
      'NotReady for exactly the timeout is unhealthy',
      notReady('a', 5 * minute),
      { state: 'unhealthy', reason: 'UnhealthyNodeCondition', sinceMs: nowMs - 5 * minute },
    ],
    [
      'Ready=Unknown (kubelet silent) past its timeout is unhealthy',
      linked('a', [nodeCondition('Ready', 'Unknown', 6 * minute)]),
      { state: 'unhealthy', reason: 'UnhealthyNodeCondition' },
    ],
    [
      'a condition without transition time never fires early',
      linked('a', [{ type: 'Ready', status: 'False' }]),
      { state: 'pending', deadlineMs: nowMs + 5 * minute },
    ],
    [
      'a Node gone after linking is unhealthy at once',
      { machine: machine('a') },
      { state: 'unhealthy', reason: 'NodeNotFound' },
    ],
    [
      'a Node re-created under the same name is not the linked Node',
      {
        machine: machine('a', { nodeRef: { name: 'node-a', uid: 'old' } }),
        node: { name: 'node-a', uid: 'new', conditions: [] },
      },
      { state: 'unhealthy', reason: 'NodeNotFound' },
    ],
    [
      'phase Failed is unhealthy at once',
      linked('a', undefined, { phase: 'Failed' }),
      { state: 'unhealthy', reason: 'MachineFailed' },
    ],
    [
      'a failureReason is unhealthy at once',
      linked('a', undefined, { failureReason: 'InvalidConfiguration' }),
      { state: 'unhealthy', reason: 'MachineFailed' },
    ],
    [
      'the remediate-machine annotation is unhealthy at once',
      linked('a', undefined, { annotations: { 'machine-api.dev/remediate-machine': '' } }),
      { state: 'unhealthy', reason: 'RemediationRequested' },
    ],
    [
      'a deleting Machine is not evaluated',
      notReady('a', 60 * minute, { deletionTimestamp: ago(minute) }),
      { state: 'deleting' },
    ],
    [
      'no Node 9m after provisioning is still starting',
      {
        machine: machine('a', {
          nodeRef: undefined,
          phase: 'Provisioned',
          lastUpdated: ago(9 * minute),
        }),
      },
      { state: 'starting', deadlineMs: nowMs + minute },
    ],
    [
      'no Node 10m after provisioning is unhealthy, although created long before',
      {
        machine: machine('a', {
          nodeRef: undefined,
          phase: 'Provisioned',
          creationTimestamp: ago(600 * minute),
          lastUpdated: ago(10 * minute),
        }),
      },
      { state: 'unhealthy', reason: 'NodeStartupTimeout' },
    ],
    [
      'InfrastructureReady=True starts the startup clock',
      {
        machine: machine('a', {
          nodeRef: undefined,
          phase: 'Provisioning',
          conditions: [
            { type: 'InfrastructureReady', status: 'True', lastTransitionTime: ago(2 * minute) },
          ],
        }),
      },
      { state: 'starting', deadlineMs: nowMs + 8 * minute },
    ],
    [
      'a Machine not provisioned yet has no startup clock',
      { machine: machine('a', { nodeRef: undefined, phase: 'Provisioning' }) },
      { state: 'starting' },
    ],
  ])('%s', (_name, target, expected) => {
    const [evaluation] = evaluateTargets([target], rules, now).evaluations
    expect(evaluation?.health).toMatchObject(expected)
  })

  it('reports the earliest crossing across targets as the next check', () => {
    const result = evaluateTargets(
      [
        linked('healthy'),
        notReady('late', 1 * minute),
        notReady('soon', 4 * minute + 30 * second),
        {
          machine: machine('boot', {
            nodeRef: undefined,
            phase: 'Provisioned',
            lastUpdated: ago(9 * minute),
          }),
        },
        notReady('gone-already', 9 * minute),
      ],
      rules,
      now,
    )
    expect(result.nextCheckAtMs).toBe(nowMs + 30 * second)
  })

  it('has no next check when no timer runs', () => {
    expect(
      evaluateTargets([linked('a'), notReady('b', 60 * minute)], rules, now).nextCheckAtMs,
    ).toBeUndefined()
  })

  it('disables the startup check with a zero timeout', () => {
    const target = { machine: machine('a', { nodeRef: undefined, lastUpdated: ago(600 * minute) }) }
    const [e] = evaluateTargets([target], { ...rules, nodeStartupTimeoutMs: 0 }, now).evaluations
    expect(e?.health).toEqual({ state: 'starting' })
  })

  it.each([
    ['healthy', linked('a'), { healthy: true, inFlight: false }],
    ['pending counts as not healthy', notReady('a', minute), { healthy: false, inFlight: false }],
    [
      'starting counts as not healthy',
      { machine: machine('a', { nodeRef: undefined }) },
      { healthy: false, inFlight: false },
    ],
    [
      'deleting is in flight',
      notReady('a', minute, { deletionTimestamp: ago(0) }),
      { healthy: false, inFlight: true },
    ],
    [
      'handed off and still unhealthy is in flight',
      notReady('a', 9 * minute, {
        annotations: { 'machine-api.dev/external-remediation': 'annotation' },
      }),
      { healthy: false, inFlight: true },
    ],
    [
      'handed off and healthy again is healthy',
      linked('a', undefined, {
        annotations: { 'machine-api.dev/external-remediation': 'annotation' },
      }),
      { healthy: true, inFlight: false },
    ],
  ])('counts: %s', (_name, target, expected) => {
    const [e] = evaluateTargets([target], rules, now).evaluations
    expect({ healthy: e?.healthy, inFlight: e?.inFlight }).toEqual(expected)
  })
})

describe('provisionedAtMs', () => {
  it.each([
    ['Pending', machine('a', { phase: 'Pending', lastUpdated: ago(minute) }), undefined],
    [
      'Provisioned with lastUpdated',
      machine('a', { phase: 'Provisioned', lastUpdated: ago(minute) }),
      nowMs - minute,
    ],
    [
      'Running without lastUpdated falls back to creation',
      machine('a', { phase: 'Running' }),
      nowMs - 60 * minute,
    ],
  ])('%s', (_name, m, expected) => {
    expect(provisionedAtMs(m)).toBe(expected)
  })
})

describe('evaluateTargets with unhealthyMachineConditions', () => {
  /** StatusChecksPassed=False for 2m, InstanceHealthy=False for 10m. */
  const withMachineRules = {
    ...rules,
    unhealthyMachineConditions: [
      { type: 'StatusChecksPassed', status: 'False', timeoutMs: 2 * minute },
      { type: 'InstanceHealthy', status: 'False', timeoutMs: 10 * minute },
    ],
  }
  const failing = (sinceMsAgo: number) => nodeCondition('StatusChecksPassed', 'False', sinceMsAgo)

  it.each<[string, Target, Partial<TargetHealth> & { state: TargetHealth['state'] }]>([
    [
      'a Machine condition past its timeout is unhealthy though the Node is Ready',
      linked('a', undefined, { conditions: [failing(3 * minute)] }),
      {
        state: 'unhealthy',
        reason: 'UnhealthyMachineCondition',
        sinceMs: nowMs - 3 * minute,
        detail: {
          kind: 'machine-condition',
          type: 'StatusChecksPassed',
          status: 'False',
          timeoutMs: 2 * minute,
        },
      },
    ],
    [
      'a Machine condition within its timeout is pending on the Machine',
      linked('a', undefined, { conditions: [failing(minute)] }),
      { state: 'pending', on: 'machine', deadlineMs: nowMs + minute },
    ],
    [
      'the same condition with another status does not match',
      linked('a', undefined, { conditions: [nodeCondition('StatusChecksPassed', 'True', hour)] }),
      { state: 'healthy' },
    ],
    [
      'a Machine condition counts before a Node has joined',
      { machine: machine('a', { nodeRef: undefined, conditions: [failing(3 * minute)] }) },
      { state: 'unhealthy', reason: 'UnhealthyMachineCondition' },
    ],
    [
      'an expired Node condition wins over a pending Machine condition',
      notReady('a', 6 * minute, { conditions: [failing(minute)] }),
      { state: 'unhealthy', reason: 'UnhealthyNodeCondition' },
    ],
    [
      'of a pending Node and a pending Machine condition the earlier deadline is reported',
      notReady('a', 2 * minute, { conditions: [failing(90 * second)] }),
      { state: 'pending', on: 'machine', deadlineMs: nowMs + 30 * second },
    ],
    [
      'a pending Node condition due first is reported over the Machine condition',
      notReady('a', 4 * minute + 50 * second, { conditions: [failing(30 * second)] }),
      { state: 'pending', on: 'node', deadlineMs: nowMs + 10 * second },
    ],
    [
      'a Machine condition due before the node startup timeout is reported while starting',
      {
        machine: machine('a', {
          nodeRef: undefined,
          phase: 'Provisioned',
          lastUpdated: ago(minute),
          conditions: [failing(minute)],
        }),
      },
      { state: 'pending', on: 'machine', deadlineMs: nowMs + minute },
    ],
    [
      'of two expired Machine conditions the one that expired first is the reason',
      linked('a', undefined, {
        conditions: [failing(3 * minute), nodeCondition('InstanceHealthy', 'False', 20 * minute)],
      }),
      {
        state: 'unhealthy',
        detail: {
          kind: 'machine-condition',
          type: 'InstanceHealthy',
          status: 'False',
          timeoutMs: 10 * minute,
        },
      },
    ],
  ])('%s', (_name, target, expected) => {
    const [evaluation] = evaluateTargets([target], withMachineRules, now).evaluations
    expect(evaluation?.health).toMatchObject(expected)
  })

  it('requeues at the Machine condition deadline', () => {
    const target = linked('a', undefined, { conditions: [failing(minute)] })
    expect(evaluateTargets([target], withMachineRules, now).nextCheckAtMs).toBe(nowMs + minute)
  })

  it('ignores Machine conditions when the health check names none', () => {
    const target = linked('a', undefined, { conditions: [failing(hour)] })
    expect(evaluateTargets([target], rules, now).evaluations[0]?.health).toEqual({
      state: 'healthy',
    })
  })
})
