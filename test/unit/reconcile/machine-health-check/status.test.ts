import { describe, expect, it } from 'vitest'
import { planRemediation } from '../../../../src/reconcile/machine-health-check/plan'
import { healthCheckStatus } from '../../../../src/reconcile/machine-health-check/status'
import type { Target } from '../../../../src/reconcile/machine-health-check/target'
import { evaluate, linked, minute, notReady, now } from './builders'

const stamp = '2026-12-01T12:00:00Z'

function statusOf(targets: Target[], maxUnhealthy: number | string, maxInFlight?: number) {
  const evaluations = evaluate(targets)
  const plan = planRemediation(evaluations, { maxUnhealthy, maxInFlight, mode: { type: 'delete' } })
  return healthCheckStatus({ plan, evaluations, maxUnhealthy, previous: [], generation: 3, now })
}

const ten = (bad: number) => [
  ...Array.from({ length: 10 - bad }, (_, i) => linked(`m-${i}`)),
  ...Array.from({ length: bad }, (_, i) => notReady(`m-${10 - bad + i}`, 20 * minute)),
]

describe('healthCheckStatus', () => {
  it.each<[string, Target[], number | string, number | undefined, object]>([
    [
      'all healthy',
      ten(0),
      '40%',
      undefined,
      {
        expectedMachines: 10,
        currentHealthy: 10,
        remediationsAllowed: 4,
        observedGeneration: 3,
        conditions: [
          {
            type: 'RemediationAllowed',
            status: 'True',
            reason: 'WithinMaxUnhealthy',
            message: '0 of 10 Machines not healthy, within maxUnhealthy 40% (4)',
            lastTransitionTime: stamp,
          },
          {
            type: 'TargetsHealthy',
            status: 'True',
            reason: 'AllHealthy',
            message: 'all 10 Machines are healthy',
            lastTransitionTime: stamp,
          },
        ],
      },
    ],
    [
      'short-circuited: the condition carries the counts',
      ten(5),
      '40%',
      undefined,
      {
        currentHealthy: 5,
        remediationsAllowed: 0,
        conditions: [
          {
            type: 'RemediationAllowed',
            status: 'False',
            reason: 'TooManyUnhealthy',
            message:
              '5 of 10 Machines not healthy, more than maxUnhealthy 40% (4): remediation is paused until at most 4 are not healthy; holding back m-5, m-6, m-7, m-8, m-9',
          },
          {
            type: 'TargetsHealthy',
            status: 'False',
            reason: 'MachinesNotHealthy',
            message:
              '5 of 10 Machines not healthy: m-5 (UnhealthyNodeCondition), m-6 (UnhealthyNodeCondition), m-7 (UnhealthyNodeCondition), m-8 (UnhealthyNodeCondition), m-9 (UnhealthyNodeCondition)',
          },
        ],
      },
    ],
    [
      'throttled by maxInFlight',
      ten(2),
      '100%',
      1,
      {
        remediationsAllowed: 8,
        conditions: [
          {
            type: 'RemediationAllowed',
            status: 'True',
            reason: 'MaxInFlightReached',
            message:
              '2 of 10 Machines not healthy, within maxUnhealthy 100% (10); 0 of at most 1 in flight',
          },
          { type: 'TargetsHealthy', status: 'False' },
        ],
      },
    ],
  ])('%s', (_name, targets, maxUnhealthy, maxInFlight, expected) => {
    expect(statusOf(targets, maxUnhealthy, maxInFlight)).toMatchObject(expected)
  })

  it('lists targets sorted by name', () => {
    expect(statusOf([linked('b'), linked('a'), linked('c')], '100%').targets).toEqual([
      'a',
      'b',
      'c',
    ])
  })

  it('abbreviates long lists of unhealthy Machines', () => {
    const targets = Array.from({ length: 12 }, (_, i) =>
      notReady(`m-${String(i).padStart(2, '0')}`, 20 * minute),
    )
    const healthy = statusOf(targets, '100%').conditions.find((c) => c.type === 'TargetsHealthy')
    expect(healthy?.message).toMatch(/m-09 \(UnhealthyNodeCondition\) and 2 more$/)
  })
})
