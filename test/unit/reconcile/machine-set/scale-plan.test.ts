import { describe, expect, it } from 'vitest'
import type { DeleteCandidate } from '../../../../src/reconcile/machine-set/delete-order'
import {
  machineNameForIndex,
  nextMachineNames,
} from '../../../../src/reconcile/machine-set/machine-names'
import { planMachineSetScale } from '../../../../src/reconcile/machine-set/scale-plan'

const m = (name: string, deleting = false): DeleteCandidate => ({
  metadata: { name, uid: name, ...(deleting ? { deletionTimestamp: '2026-12-01T00:00:00Z' } : {}) },
  status: { nodeRef: { name } },
})

const obs = (
  machines: DeleteCandidate[],
  replicas: number,
  options: { maxBatch?: number; nextIndex?: number; createLimit?: number } = {},
) => ({
  setName: 'workers',
  setUid: 'set-uid',
  replicas,
  deletePolicy: 'Oldest' as const,
  machines,
  takenNames: new Set(machines.map((x) => x.metadata.name)),
  nextIndex: options.nextIndex ?? 0,
  ...options,
})

describe('machine names', () => {
  it('gives each index a stable DNS-safe name', () => {
    const name = machineNameForIndex('workers', 'set-uid', 0)
    expect(name).toMatch(/^workers-[bcdfghjklmnpqrstvwxz2456789]{5}$/)
    expect(machineNameForIndex('workers', 'set-uid', 0)).toBe(name)
    expect(machineNameForIndex('workers', 'set-uid', 1)).not.toBe(name)
    expect(machineNameForIndex('x'.repeat(80), 'u', 0).length).toBeLessThanOrEqual(63)
  })

  it('skips names already taken, and counts them', () => {
    const first = machineNameForIndex('workers', 'set-uid', 0)
    const next = nextMachineNames('workers', 'set-uid', new Set([first]), 0, 2)
    expect(next).toEqual({
      names: [
        machineNameForIndex('workers', 'set-uid', 1),
        machineNameForIndex('workers', 'set-uid', 2),
      ],
      nextIndex: 3,
    })
  })

  it('never gives two indices of a set the same name', () => {
    const names = new Set<string>()
    for (let i = 0; i < 20_000; i++) names.add(machineNameForIndex('workers', 'set-uid', i))
    expect(names.size).toBe(20_000)
  })
})

describe('planMachineSetScale', () => {
  it('two runs that see the same missing replicas choose the same names', () => {
    const a = planMachineSetScale(obs([], 3))
    const b = planMachineSetScale(obs([], 3))
    expect(a.create).toHaveLength(3)
    expect(b.create).toEqual(a.create)
  })

  it('counts Machines being deleted, so it does not replace them early', () => {
    const plan = planMachineSetScale(obs([m('a'), m('b'), m('c', true)], 3))
    expect(plan).toEqual({ create: [], nextIndex: 0, delete: [], more: false })
  })

  it('never deletes a Machine that is already being deleted again', () => {
    const plan = planMachineSetScale(obs([m('a'), m('b'), m('c', true)], 1))
    expect(plan.delete.map((x) => x.metadata.name)).toHaveLength(1)
    expect(plan.delete[0]?.metadata.deletionTimestamp).toBeUndefined()
  })

  it('creates in batches and says there is more', () => {
    const plan = planMachineSetScale(obs([], 120, { maxBatch: 50 }))
    expect(plan.create).toHaveLength(50)
    expect(plan.nextIndex).toBe(50)
    expect(plan.more).toBe(true)
  })

  it('names a replica that came back after a scale-down anew: never a name handed out before', () => {
    const up = planMachineSetScale(obs([], 3))
    const [first, second] = up.create.map((name) => m(name))
    // The third went away; its replica is asked for again.
    const again = planMachineSetScale(
      obs([first as DeleteCandidate, second as DeleteCandidate], 3, { nextIndex: up.nextIndex }),
    )
    expect(again.create).toHaveLength(1)
    expect(up.create).not.toContain(again.create[0])
    expect(again.nextIndex).toBe(4)
  })

  it('names only what the create limit lets through and counts no more', () => {
    const plan = planMachineSetScale(obs([], 5, { createLimit: 2, nextIndex: 7 }))
    expect(plan.create).toEqual([7, 8].map((i) => machineNameForIndex('workers', 'set-uid', i)))
    expect(plan).toMatchObject({ nextIndex: 9, more: false })
  })
})
