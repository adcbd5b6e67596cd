import { describe, expect, it } from 'vitest'
import {
  planRemediation,
  type RemediationMode,
  type RemediationPolicy,
} from '../../../../src/reconcile/machine-health-check/plan'
import type { Target } from '../../../../src/reconcile/machine-health-check/target'
import { ago, evaluate, linked, machine, minute, notReady } from './builders'

const deleteMode: RemediationMode = { type: 'delete' }

function fleet(healthy: number, unhealthy: number): Target[] {
  return [
    ...Array.from({ length: healthy }, (_, i) => linked(`ok-${i}`)),
    // Older failures get smaller indices: u-0 failed first.
    ...Array.from({ length: unhealthy }, (_, i) => notReady(`u-${i}`, (20 - i) * minute)),
  ]
}

function targetsOf(plan: ReturnType<typeof planRemediation>): string[] {
  return plan.actions.map((a) =>
    a.type === 'clear-hand-off'
      ? `clear:${a.machine.name}`
      : `${a.type}:${a.evaluation.target.machine.name}`,
  )
}

describe('planRemediation', () => {
  it.each<[string, Target[], Partial<RemediationPolicy>, object, string[]]>([
    [
      '5 of 10 unhealthy with maxUnhealthy 40% short-circuits',
      fleet(5, 5),
      { maxUnhealthy: '40%' },
      {
        expectedMachines: 10,
        currentHealthy: 5,
        unhealthy: 5,
        maxUnhealthy: 4,
        shortCircuited: true,
        remediationsAllowed: 0,
      },
      [],
    ],
    [
      '3 of 10 unhealthy with maxUnhealthy 40% remediates all 3',
      fleet(7, 3),
      { maxUnhealthy: '40%' },
      { unhealthy: 3, maxUnhealthy: 4, shortCircuited: false, remediationsAllowed: 1 },
      ['delete:u-0', 'delete:u-1', 'delete:u-2'],
    ],
    [
      'an integer maxUnhealthy equal to the count still remediates',
      fleet(2, 2),
      { maxUnhealthy: 2 },
      { shortCircuited: false, remediationsAllowed: 0 },
      ['delete:u-0', 'delete:u-1'],
    ],
    [
      'maxUnhealthy 0 blocks any remediation',
      fleet(9, 1),
      { maxUnhealthy: 0 },
      { shortCircuited: true },
      [],
    ],
    [
      'Machines waiting for a Node count against maxUnhealthy',
      [
        ...fleet(2, 1),
        {
          machine: machine('new', {
            nodeRef: undefined,
            phase: 'Provisioned',
            lastUpdated: ago(minute),
          }),
        },
      ],
      { maxUnhealthy: 1 },
      { unhealthy: 2, shortCircuited: true },
      [],
    ],
    [
      'maxInFlight 1 remediates the oldest failure only',
      fleet(7, 3),
      { maxInFlight: 1 },
      { inFlight: 0, maxInFlight: 1 },
      ['delete:u-0'],
    ],
    [
      'maxInFlight counts Machines already being deleted',
      [...fleet(7, 2), notReady('going', 30 * minute, { deletionTimestamp: ago(minute) })],
      { maxInFlight: 1 },
      { inFlight: 1 },
      [],
    ],
    [
      'a percentage maxInFlight rounds up so small sets still heal',
      fleet(3, 2),
      { maxInFlight: '10%' },
      { maxInFlight: 1 },
      ['delete:u-0'],
    ],
    [
      'a Machine without a MachineSet owner is only marked',
      [...fleet(3, 0), notReady('lonely', 20 * minute, { machineSetOwner: undefined })],
      {},
      { unhealthy: 1 },
      [],
    ],
    [
      'the skip-remediation annotation is honoured',
      [notReady('skip', 20 * minute, { annotations: { 'machine-api.dev/skip-remediation': '' } })],
      {},
      {},
      [],
    ],
    [
      'requested and failed Machines go before timed-out ones',
      [
        notReady('b-old', 60 * minute),
        linked('a-failed', undefined, { phase: 'Failed', machineSetOwner: undefined }),
      ],
      { maxInFlight: 1, mode: { type: 'external-annotation' } },
      {},
      ['hand-off:a-failed'],
    ],
    [
      'a Failed Machine of a set is left to its set (which replaces it under backoff)',
      [linked('a', undefined, { phase: 'Failed', failureReason: 'InvalidAMI' }), linked('ok')],
      { maxUnhealthy: '100%' },
      { currentHealthy: 1, unhealthy: 1 },
      [],
    ],
    [
      'external remediation by annotation hands off instead of deleting, owner or not',
      [notReady('x', 20 * minute, { machineSetOwner: undefined })],
      { mode: { type: 'external-annotation' } },
      {},
      ['hand-off:x'],
    ],
    [
      'a Machine handed off and healthy again is cleared',
      [
        linked('x', undefined, {
          annotations: { 'machine-api.dev/external-remediation': 'annotation' },
        }),
      ],
      { mode: { type: 'external-annotation' } },
      { currentHealthy: 1 },
      ['clear:x'],
    ],
    [
      'a Machine handed off and still unhealthy is not handed off twice',
      [
        notReady('x', 20 * minute, {
          annotations: { 'machine-api.dev/external-remediation': 'annotation' },
        }),
      ],
      { mode: { type: 'external-annotation' } },
      { inFlight: 1 },
      [],
    ],
  ])('%s', (_name, targets, policy, counts, actions) => {
    const plan = planRemediation(evaluate(targets), {
      maxUnhealthy: '100%',
      mode: deleteMode,
      ...policy,
    })
    expect(plan).toMatchObject(counts)
    expect(targetsOf(plan)).toEqual(actions)
  })

  it('says why each unhealthy Machine was left alone', () => {
    const targets = [
      ...fleet(7, 2),
      notReady('lonely', 30 * minute, { machineSetOwner: undefined }),
    ]
    expect(
      planRemediation(evaluate(targets), { maxUnhealthy: 2, mode: deleteMode }).skipped,
    ).toEqual([
      { name: 'lonely', reason: 'TooManyUnhealthy' },
      { name: 'u-0', reason: 'TooManyUnhealthy' },
      { name: 'u-1', reason: 'TooManyUnhealthy' },
    ])
    expect(
      planRemediation(evaluate(targets), { maxUnhealthy: 3, maxInFlight: 1, mode: deleteMode })
        .skipped,
    ).toEqual([
      { name: 'lonely', reason: 'NoMachineSetOwner' },
      { name: 'u-1', reason: 'MaxInFlight' },
    ])
  })
})
