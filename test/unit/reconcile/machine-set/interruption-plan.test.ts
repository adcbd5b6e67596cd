import { describe, expect, it } from 'vitest'
import type { InterruptionPolicy } from '../../../../src/api/v1beta1/interruption-policy'
import { machineNameForIndex } from '../../../../src/reconcile/machine-set/machine-names'
import { type MachineSetAction, planMachineSet } from '../../../../src/reconcile/machine-set/plan'
import type { MachineObject } from '../../../../src/reconcile/machine-set/types'
import { machine, machineSet, noticed, setUid, t0 } from './builders'

const slot = (i: number) => machineNameForIndex('workers', setUid, i)

const ready = (name: string) => machine(name, { ready: true })

function plan(replicas: number, machines: MachineObject[], interruption?: InterruptionPolicy) {
  return planMachineSet(
    { set: machineSet(replicas, interruption ? { interruption } : {}), machines, now: t0 },
    {},
  )
}

const summary = (actions: MachineSetAction[]) =>
  actions.map((a) => `${a.type}:${a.machine.metadata.name}`).sort()

describe('planMachineSet with interrupted Machines', () => {
  it.each<[string, number, MachineObject[], InterruptionPolicy | undefined, string[]]>([
    [
      'a spot interruption: the replacement is created and the old Machine deleted (deletes run last)',
      3,
      [ready('a'), ready('b'), noticed('c', 'SpotInterruption', 120_000)],
      undefined,
      [`create:${slot(0)}`, 'delete:c'],
    ],
    [
      'the replacement exists: nothing more is created (a repeated notice, a rerun)',
      3,
      [ready('a'), ready('b'), machine(slot(0)), noticed('c', 'SpotInterruption', 120_000)],
      undefined,
      ['delete:c'],
    ],
    [
      'the old Machine is being deleted and the replacement exists: nothing to do',
      3,
      [
        ready('a'),
        ready('b'),
        machine(slot(0)),
        noticed('c', 'SpotInterruption', 120_000, { deleting: true }),
      ],
      undefined,
      [],
    ],
    [
      'killed after the delete, before the create: the replacement is still created',
      3,
      [ready('a'), ready('b'), noticed('c', 'SpotInterruption', 120_000, { deleting: true })],
      undefined,
      [`create:${slot(0)}`],
    ],
    [
      'no surge room (maxSurge 0): the Machine still goes now, its replacement once it is gone',
      2,
      [ready('a'), noticed('b', 'SpotInterruption', 120_000)],
      { maxSurge: 0 },
      ['delete:b'],
    ],
    [
      'a rebalance recommendation is only recorded by default',
      2,
      [ready('a'), noticed('b', 'RebalanceRecommended')],
      undefined,
      [],
    ],
    [
      'a rebalance recommendation with Replace: a replacement, the old one kept until it is Ready',
      2,
      [ready('a'), noticed('b', 'RebalanceRecommended')],
      { rebalanceRecommendation: 'Replace' },
      [`create:${slot(0)}`],
    ],
    [
      'a rebalance recommendation with Replace whose replacement is Ready: the old one goes',
      2,
      [ready('a'), ready('new'), noticed('b', 'RebalanceRecommended')],
      { rebalanceRecommendation: 'Replace' },
      ['delete:b'],
    ],
    [
      'maintenance in 3 days waits for a Ready replacement',
      2,
      [ready('a'), machine('new'), noticed('b', 'ScheduledMaintenance', 3 * 86_400_000)],
      undefined,
      [],
    ],
    [
      'maintenance within 10 minutes goes now',
      2,
      [ready('a'), machine('new'), noticed('b', 'ScheduledMaintenance', 5 * 60_000)],
      undefined,
      ['delete:b'],
    ],
    [
      'an instance already shutting down goes now',
      2,
      [ready('a'), noticed('b', 'InstanceTerminated')],
      undefined,
      [`create:${slot(0)}`, 'delete:b'],
    ],
    [
      'a notice about an instance the Machine no longer has is history',
      2,
      [ready('a'), noticed('b', 'SpotInterruption', 120_000, { otherInstance: true })],
      undefined,
      [],
    ],
  ])('%s', (_name, replicas, machines, policy, expected) => {
    expect(summary(plan(replicas, machines, policy).actions)).toEqual(expected.sort())
  })

  it('30 of 100 interrupted with maxSurge 10: 10 replacements now, all 30 drained now, the rest as room frees', () => {
    const healthy = Array.from({ length: 70 }, (_, i) => ready(`h${i}`))
    const hit = Array.from({ length: 30 }, (_, i) => noticed(`x${i}`, 'SpotInterruption', 120_000))
    const first = plan(100, [...healthy, ...hit], { maxSurge: 10 })
    const creates = first.actions.filter((a) => a.type === 'create')
    const deletes = first.actions.filter((a) => a.type === 'delete')
    expect(creates).toHaveLength(10)
    expect(deletes).toHaveLength(30)
    // Next pass: 10 replacements exist, the 30 are being deleted: 110 + 30 - 100 - 10 > 0, no room.
    const created = creates.map((a) => machine(a.machine.metadata.name))
    const deleting = hit.map((m) => ({
      ...m,
      metadata: { ...m.metadata, deletionTimestamp: t0.toISOString() },
    }))
    expect(plan(100, [...healthy, ...created, ...deleting], { maxSurge: 10 }).actions).toEqual([])
    // 25 of them gone: room for the remaining 20 replacements? 80 + 5 = 85 of 110: 20 creates.
    const later = plan(100, [...healthy, ...created, ...deleting.slice(25)], { maxSurge: 10 })
    expect(later.actions.filter((a) => a.type === 'create')).toHaveLength(20)
  })

  it('the default bound is 25% of replicas, rounded up', () => {
    const healthy = Array.from({ length: 6 }, (_, i) => ready(`h${i}`))
    const hit = Array.from({ length: 4 }, (_, i) => noticed(`x${i}`, 'SpotInterruption', 120_000))
    const creates = plan(10, [...healthy, ...hit]).actions.filter((a) => a.type === 'create')
    expect(creates).toHaveLength(3)
  })

  it('a waiting maintenance is looked at again when it becomes urgent', () => {
    const p = plan(2, [ready('a'), noticed('b', 'ScheduledMaintenance', 3_600_000)])
    expect(p.requeueAfterMs).toBe(3_600_000 - 600_000)
  })

  it('an interrupted Failed Machine is not a failed replacement round', () => {
    const gone = noticed('b', 'InstanceTerminated')
    gone.status = { phase: 'Failed', failureReason: 'InstanceGone', failureMessage: 'gone' }
    const p = plan(2, [ready('a'), gone])
    expect(p.replacement.failed).toEqual([])
    expect(summary(p.actions)).toEqual([`create:${slot(0)}`, 'delete:b'])
  })
})
