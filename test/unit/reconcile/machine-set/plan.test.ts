import { describe, expect, it } from 'vitest'
import { ANNOTATIONS } from '../../../../src/api/group'
import { machineNameForIndex } from '../../../../src/reconcile/machine-set/machine-names'
import { type MachineSetAction, planMachineSet } from '../../../../src/reconcile/machine-set/plan'
import type { MachineObject } from '../../../../src/reconcile/machine-set/types'
import { machine, machineSet, setUid, t0 } from './builders'

const summary = (actions: MachineSetAction[]) =>
  actions.map((a) => `${a.type}:${a.machine.metadata.name}`).sort()

const slot = (i: number) => machineNameForIndex('workers', setUid, i)

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
    ).toEqual([...expected].sort())
  })

  it('puts the Machines it creates in one zone in a launch group, unless the set says not to', () => {
    const created = (set: ReturnType<typeof machineSet>) =>
      planMachineSet({ set, machines: [], now: t0, zones: ['a', 'b'] })
        .actions.filter((a) => a.type === 'create')
        .map((a) => [
          a.machine.spec?.failureDomain,
          a.machine.metadata.annotations?.[ANNOTATIONS.launchGroup]?.replace(/^\w+/, 'g'),
        ])
    expect(created(machineSet(3)).sort()).toEqual([
      ['a', 'g/0/2'],
      ['a', 'g/1/2'],
      ['b', undefined],
    ])
    const alone = machineSet(3)
    alone.metadata.annotations = { [ANNOTATIONS.launchGroups]: 'false' }
    expect(created(alone).map(([, place]) => place)).toEqual([undefined, undefined, undefined])
  })

  it('records the names it hands out, and a later pass continues after them', () => {
    const first = planMachineSet({ set: machineSet(2), machines: [], now: t0 })
    const claim = { from: 0, to: 2, at: t0.toISOString() }
    expect(first.names).toEqual({ status: { nextMachineIndex: 2, nameClaims: [claim] }, claim })
    const counted = { ...machineSet(2), status: { nextMachineIndex: 2 } }
    const kept = machine(slot(0), { ready: true })
    const again = planMachineSet({ set: counted, machines: [kept], now: t0 })
    expect(summary(again.actions)).toEqual([`create:${slot(2)}`])
    expect(again.names?.status.nextMachineIndex).toBe(3)
    expect(planMachineSet({ set: counted, machines: [kept, kept], now: t0 })).not.toHaveProperty(
      'names',
    )
  })

  it("counts a concurrent pass's claimed names that have no Machine yet as Machines being created, until the claim expires", () => {
    const claimedAt = new Date(t0.getTime() - 10_000).toISOString()
    // Another pass claimed names 0..2 ten seconds ago; only name 0 has a Machine so far.
    const claimed = {
      ...machineSet(3),
      status: { nextMachineIndex: 3, nameClaims: [{ from: 0, to: 3, at: claimedAt }] },
    }
    const listed = [machine(slot(0), { ready: true })]
    const meanwhile = planMachineSet({ set: claimed, machines: listed, now: t0 })
    expect(summary(meanwhile.actions)).toEqual([])
    expect(meanwhile.requeueAfterMs).toBe(80_000)
    // A scale-down is not held back by names without Machines: only Machines are deleted.
    const fewer = planMachineSet({
      set: { ...claimed, spec: { ...claimed.spec, replicas: 0 } },
      machines: listed,
      now: t0,
    })
    expect(summary(fewer.actions)).toEqual([`delete:${slot(0)}`])
    // The claiming pass died: 90 s after its claim the names stop counting, and new ones are taken.
    const later = new Date(Date.parse(claimedAt) + 90_000)
    const after = planMachineSet({ set: claimed, machines: listed, now: later })
    expect(summary(after.actions)).toEqual([`create:${slot(3)}`, `create:${slot(4)}`].sort())
    expect(after.names?.status.nameClaims).toEqual([{ from: 3, to: 5, at: later.toISOString() }])
  })

  it('replaces at once the names of a done claim that have no Machine (it failed and was deleted), and keeps open claims when it claims', () => {
    const at = new Date(t0.getTime() - 5_000).toISOString()
    const done = { from: 0, to: 3, at, done: true }
    const set = { ...machineSet(3), status: { nextMachineIndex: 3, nameClaims: [done] } }
    const listed = [machine(slot(0), { ready: true }), machine(slot(1), { ready: true })]
    const plan = planMachineSet({ set, machines: listed, now: t0 })
    expect(summary(plan.actions)).toEqual([`create:${slot(3)}`])
    expect(plan.requeueAfterMs).toBeUndefined()
    const open = { from: 3, to: 4, at }
    const both = {
      ...set,
      spec: { ...set.spec, replicas: 5 },
      status: { nextMachineIndex: 4, nameClaims: [done, open] },
    }
    const next = planMachineSet({ set: both, machines: listed, now: t0 })
    // slot 2 is gone after a done claim; slot 3 is still being created by the open one.
    expect(summary(next.actions)).toEqual([`create:${slot(4)}`, `create:${slot(5)}`].sort())
    expect(next.names?.status.nameClaims).toEqual([
      done,
      open,
      { from: 4, to: 6, at: t0.toISOString() },
    ])
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
