import { describe, expect, it } from 'vitest'
import type { DeleteCandidate } from '../../../../src/reconcile/machine-set/delete-order'
import {
  machineNameForSlot,
  namesForMissingReplicas,
} from '../../../../src/reconcile/machine-set/machine-names'
import { planMachineSetScale } from '../../../../src/reconcile/machine-set/scale-plan'

const m = (name: string, deleting = false): DeleteCandidate => ({
  metadata: { name, uid: name, ...(deleting ? { deletionTimestamp: '2026-12-01T00:00:00Z' } : {}) },
  status: { nodeRef: { name } },
})

const obs = (machines: DeleteCandidate[], replicas: number, maxBatch?: number) => ({
  setName: 'workers',
  setUid: 'set-uid',
  replicas,
  deletePolicy: 'Oldest' as const,
  machines,
  takenNames: new Set(machines.map((x) => x.metadata.name)),
  ...(maxBatch === undefined ? {} : { maxBatch }),
})

describe('machine names', () => {
  it('gives each slot a stable DNS-safe name', () => {
    const name = machineNameForSlot('workers', 'set-uid', 0)
    expect(name).toMatch(/^workers-[bcdfghjklmnpqrstvwxz2456789]{5}$/)
    expect(machineNameForSlot('workers', 'set-uid', 0)).toBe(name)
    expect(machineNameForSlot('workers', 'set-uid', 1)).not.toBe(name)
    expect(machineNameForSlot('x'.repeat(80), 'u', 0).length).toBeLessThanOrEqual(63)
  })

  it('skips names already taken', () => {
    const first = machineNameForSlot('workers', 'set-uid', 0)
    const names = namesForMissingReplicas('workers', 'set-uid', new Set([first]), 2)
    expect(names).toEqual([
      machineNameForSlot('workers', 'set-uid', 1),
      machineNameForSlot('workers', 'set-uid', 2),
    ])
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
    expect(plan).toEqual({ create: [], delete: [], more: false })
  })

  it('never deletes a Machine that is already being deleted again', () => {
    const plan = planMachineSetScale(obs([m('a'), m('b'), m('c', true)], 1))
    expect(plan.delete.map((x) => x.metadata.name)).toHaveLength(1)
    expect(plan.delete[0]?.metadata.deletionTimestamp).toBeUndefined()
  })

  it('creates in batches and says there is more', () => {
    const plan = planMachineSetScale(obs([], 120, 50))
    expect(plan.create).toHaveLength(50)
    expect(plan.more).toBe(true)
  })
})
