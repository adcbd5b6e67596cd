import { describe, expect, it } from 'vitest'
import { formatDuration } from '../../../../src/reconcile/machine-health-check/format'
import {
  conditionChanged,
  machineHealthCondition,
} from '../../../../src/reconcile/machine-health-check/machine-condition'
import type { Target } from '../../../../src/reconcile/machine-health-check/target'
import { evaluateTargets } from '../../../../src/reconcile/machine-health-check/targets'
import { ago, evaluate, linked, machine, minute, notReady, now, rules } from './builders'

const earlier = '2026-12-01T11:00:00Z'

describe('machineHealthCondition', () => {
  it.each<[string, Target, { status: string; reason: string; message: string }]>([
    [
      'healthy',
      linked('a'),
      { status: 'True', reason: 'Healthy', message: 'Node node-a passes every check' },
    ],
    [
      'pending: says since when and when it becomes unhealthy',
      notReady('a', 2 * minute),
      {
        status: 'True',
        reason: 'UnhealthyConditionPending',
        message:
          'Node node-a: condition Ready is False since 2026-12-01T11:58:00Z; unhealthy at 2026-12-01T12:03:00Z',
      },
    ],
    [
      'unhealthy condition: says which condition and for how long',
      notReady('a', 7 * minute),
      {
        status: 'False',
        reason: 'UnhealthyNodeCondition',
        message:
          'Node node-a: condition Ready is False for more than 5m (since 2026-12-01T11:53:00Z)',
      },
    ],
    [
      'Node gone',
      { machine: machine('a') },
      { status: 'False', reason: 'NodeNotFound', message: 'Node node-a is gone' },
    ],
    [
      'startup timeout',
      {
        machine: machine('a', {
          nodeRef: undefined,
          phase: 'Provisioned',
          lastUpdated: ago(12 * minute),
        }),
      },
      {
        status: 'False',
        reason: 'NodeStartupTimeout',
        message:
          'no Node joined within nodeStartupTimeout 10m of provisioning (since 2026-12-01T11:48:00Z)',
      },
    ],
    [
      'waiting for a Node',
      {
        machine: machine('a', {
          nodeRef: undefined,
          phase: 'Provisioned',
          lastUpdated: ago(minute),
        }),
      },
      {
        status: 'Unknown',
        reason: 'WaitingForNode',
        message: 'no Node yet; unhealthy at 2026-12-01T12:09:00Z unless one joins',
      },
    ],
    [
      'failed Machine quotes the failure',
      linked('a', undefined, { failureReason: 'InvalidConfiguration', failureMessage: 'bad AMI' }),
      {
        status: 'False',
        reason: 'MachineFailed',
        message: 'Machine failed: InvalidConfiguration: bad AMI',
      },
    ],
  ])('%s', (_name, target, expected) => {
    const [e] = evaluate([target])
    expect(e && machineHealthCondition(e, undefined, now)).toEqual({
      type: 'HealthCheckSucceeded',
      ...expected,
      lastTransitionTime: '2026-12-01T12:00:00Z',
    })
  })

  it.each<[string, number, { status: string; reason: string; message: string }]>([
    [
      'a pending Machine condition names the Machine',
      minute,
      {
        status: 'True',
        reason: 'UnhealthyConditionPending',
        message:
          'Machine: condition StatusChecksPassed is False since 2026-12-01T11:59:00Z; unhealthy at 2026-12-01T12:01:00Z',
      },
    ],
    [
      'an expired Machine condition says which and for how long',
      3 * minute,
      {
        status: 'False',
        reason: 'UnhealthyMachineCondition',
        message:
          'Machine condition StatusChecksPassed is False for more than 2m (since 2026-12-01T11:57:00Z)',
      },
    ],
  ])('%s', (_name, sinceMsAgo, expected) => {
    const machineRules = {
      ...rules,
      unhealthyMachineConditions: [
        { type: 'StatusChecksPassed', status: 'False', timeoutMs: 2 * minute },
      ],
    }
    const failing = {
      type: 'StatusChecksPassed',
      status: 'False',
      lastTransitionTime: ago(sinceMsAgo),
    }
    const target = linked('a', undefined, { conditions: [failing] })
    const [e] = evaluateTargets([target], machineRules, now).evaluations
    expect(e && machineHealthCondition(e, undefined, now)).toMatchObject(expected)
  })

  it('keeps lastTransitionTime while the status holds and moves it on a flip', () => {
    const [pending] = evaluate([notReady('a', 2 * minute)])
    const [failed] = evaluate([notReady('a', 7 * minute)])
    const previous = { type: 'HealthCheckSucceeded', status: 'True', lastTransitionTime: earlier }
    expect(pending && machineHealthCondition(pending, previous, now)?.lastTransitionTime).toBe(
      earlier,
    )
    expect(failed && machineHealthCondition(failed, previous, now)?.lastTransitionTime).toBe(
      '2026-12-01T12:00:00Z',
    )
  })

  it('writes nothing for a Machine being deleted', () => {
    const [e] = evaluate([notReady('a', 7 * minute, { deletionTimestamp: ago(0) })])
    expect(e && machineHealthCondition(e, undefined, now)).toBeUndefined()
  })

  it('gives the same condition on a later reconcile, so status is not rewritten', () => {
    const [e] = evaluate([notReady('a', 7 * minute)])
    const first = e && machineHealthCondition(e, undefined, now)
    const later = e && first && machineHealthCondition(e, first, new Date(now.getTime() + 30_000))
    expect(first && later && conditionChanged(first, later)).toBe(false)
  })
})

describe('formatDuration', () => {
  it.each([
    [500, '500ms'],
    [1500, '1.5s'],
    [30_000, '30s'],
    [300_000, '5m'],
    [5_400_000, '1h30m'],
    [3_661_000, '1h1m1s'],
  ])('%d ms is %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })
})
