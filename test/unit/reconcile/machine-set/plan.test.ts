import { describe, expect, it } from 'vitest'
import { ANNOTATIONS } from '../../../../src/api/group'
import { machineNameForSlot } from '../../../../src/reconcile/machine-set/machine-names'
import { type MachineSetAction, planMachineSet } from '../../../../src/reconcile/machine-set/plan'
import type { MachineObject } from '../../../../src/reconcile/machine-set/types'
import { machine, machineSet, setUid, t0 } from './builders'

const summary = (actions: MachineSetAction[]) =>
  actions.map((a) => `${a.type}:${a.machine.metadata.name}`).sort()

const slot = (i: number) => machineNameForSlot('workers', setUid, i)

describe('planMachineSet', () => {
  it.each<[string, number, MachineObject[], string[]]>([
    ['an empty set creates its slots', 2, [], [`create:${slot(0)}`, `create:${slot(1)}`]],
    ['a set at size does nothing', 1, [machine('a', { ready: true })], []],
    [
      'adopts an orphan that matches and counts it',
      1,
      [machine('orphan', { owner: null, ready: true })],
      ['adopt:orphan'],
    ],
    [
      'leaves a Machine another controller owns alone',
      1,
      [machine('theirs', { owner: 'other-uid' })],
      [`create:${slot(0)}`],
    ],
    [
      'does not adopt an orphan that is being deleted',
      0,
      [machine('gone', { owner: null, deleting: true })],
      [],
    ],
    [
      'releases a Machine whose labels stopped matching and replaces it',
      1,
      [machine('moved', { labels: { pool: 'b' } })],
      ['release:moved', `create:${slot(0)}`].sort(),
    ],
    [
      'does not reuse a name a foreign Machine holds',
      1,
      [machine(slot(0), { owner: 'other-uid', labels: { pool: 'z' } })],
      [`create:${slot(1)}`],
    ],
    [
      'deletes the unready Machine first',
      1,
      [machine('ok', { ready: true }), machine('bad')],
      ['delete:bad'],
    ],
    [
      'counts a Machine being deleted as a replica',
      2,
      [machine('a', { ready: true }), machine('b', { deleting: true })],
      [],
    ],
  ])('%s', (_name, replicas, machines, expected) => {
    expect(
      summary(planMachineSet({ set: machineSet(replicas), machines, now: t0 }).actions),
    ).toEqual(expected)
  })

  it('adopts nothing through a selector that requires no label (DoesNotExist alone)', () => {
    const selector = { matchExpressions: [{ key: 'x', operator: 'DoesNotExist' as const }] }
    const orphans = Array.from({ length: 3 }, (_, i) => machine(`orphan-${i}`, { owner: null }))
    const plan = planMachineSet({ set: machineSet(0, { selector }), machines: orphans, now: t0 })
    expect(plan.actions).toEqual([])
  })

  it('stamps new Machines from the template with a controller reference', () => {
    const [create] = planMachineSet({ set: machineSet(1), machines: [], now: t0 }).actions
    expect(create?.type).toBe('create')
    expect(create?.machine.metadata).toMatchObject({
      namespace: 'ns',
      labels: { pool: 'a' },
      ownerReferences: [{ kind: 'MachineSet', name: 'workers', uid: setUid, controller: true }],
    })
    expect(create?.machine.spec).toEqual({
      classRef: { name: 'small' },
      nodeDeletionTimeout: '10s',
    })
  })

  it('propagates template labels and timeouts in place', () => {
    const set = machineSet(1, {
      template: {
        metadata: { labels: { pool: 'a', team: 'x' } },
        spec: { classRef: { name: 'small' }, nodeDeletionTimeout: '1m', nodeDrainTimeout: '5m' },
      },
    })
    const plan = planMachineSet({ set, machines: [machine('a', { ready: true })], now: t0 })
    expect(plan.actions).toEqual([
      expect.objectContaining({
        type: 'update',
        patch: {
          metadata: { labels: { team: 'x' } },
          spec: { nodeDeletionTimeout: '1m', nodeDrainTimeout: '5m' },
        },
      }),
    ])
  })

  it('does nothing while the set is being deleted (the garbage collector removes Machines)', () => {
    const plan = planMachineSet({
      set: machineSet(3, { deleting: true }),
      machines: [machine('a'), machine('orphan', { owner: null })],
      now: t0,
    })
    expect(plan.actions).toEqual([])
    expect(plan.owned.map((m) => m.metadata.name)).toEqual(['a'])
  })

  it('creates nothing while the disable-create annotation is set, but still deletes', () => {
    const set = machineSet(2)
    set.metadata.annotations = { [ANNOTATIONS.disableMachineCreate]: 'true' }
    expect(planMachineSet({ set, machines: [], now: t0 }).actions).toEqual([])
    const over = machineSet(0)
    over.metadata.annotations = { [ANNOTATIONS.disableMachineCreate]: 'true' }
    const plan = planMachineSet({ set: over, machines: [machine('a')], now: t0 })
    expect(summary(plan.actions)).toEqual(['delete:a'])
  })

  it('creates in batches and asks to come back', () => {
    const plan = planMachineSet({ set: machineSet(120), machines: [], now: t0 }, { maxBatch: 50 })
    expect(plan.actions).toHaveLength(50)
    expect(plan.requeueAfterMs).toBe(1000)
  })

  it('names the tier of each victim', () => {
    const annotated = machine('marked', { ready: true })
    annotated.metadata.annotations = { 'machine-api.dev/delete-machine': '' }
    const plan = planMachineSet({
      set: machineSet(1),
      machines: [machine('keep', { ready: true }), annotated, machine('new')],
      now: t0,
    })
    expect(
      plan.actions.map((a) =>
        a.type === 'delete' ? `${a.machine.metadata.name}: ${a.reason}` : '',
      ),
    ).toEqual(['marked: delete-machine annotation', 'new: unhealthy or not linked to a Node'])
  })
})
