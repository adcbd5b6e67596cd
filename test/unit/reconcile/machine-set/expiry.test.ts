/**
 * expireAfter through the MachineSet planner: surge first (the replacement is created before the
 * expired Machine is deleted), oldest first, at most the allowance in flight, Failed Machines
 * counted against it.
 */
import { describe, expect, it } from 'vitest'
import { ANNOTATIONS } from '../../../../src/api/group'
import { formatInstanceNotice } from '../../../../src/api/instance-notice'
import { planMachineSet } from '../../../../src/reconcile/machine-set/plan'
import { computeMachineSetStatus } from '../../../../src/reconcile/machine-set/status'
import type { MachineObject, MachineSetObject } from '../../../../src/reconcile/machine-set/types'
import { type MachineOptions, machine, machineSet, t0 } from './builders'

const minute = 60_000
const now = new Date(t0.getTime() + 120 * minute)

/** A Machine created `ageMinutes` before `now`, ready unless told otherwise. */
function aged(
  name: string,
  ageMinutes: number,
  options: MachineOptions = { ready: true },
): MachineObject {
  const m = machine(name, options)
  m.metadata.creationTimestamp = new Date(now.getTime() - ageMinutes * minute).toISOString()
  return m
}

/** A Ready Machine whose instance has scheduled maintenance in three days (an interruption). */
function underMaintenance(name: string, ageMinutes: number): MachineObject {
  const m = aged(name, ageMinutes)
  const instanceId = 'i-0000000000000abcd'
  m.spec = { ...m.spec, providerID: `aws:///eu-west-1a/${instanceId}` }
  m.metadata.annotations = {
    [ANNOTATIONS.instanceNotice]: formatInstanceNotice({
      reason: 'ScheduledMaintenance',
      instanceId,
      eventId: 'event-1',
      time: now.toISOString(),
      deadline: new Date(now.getTime() + 3 * 86_400_000).toISOString(),
    }),
  }
  return m
}

function expiringSet(replicas: number, allowance?: object): MachineSetObject {
  const set = machineSet(replicas)
  set.spec.template.spec.expireAfter = '1h'
  if (allowance)
    set.metadata.annotations = { [ANNOTATIONS.expiryAllowance]: JSON.stringify(allowance) }
  return set
}

function outcome(set: MachineSetObject, machines: MachineObject[]) {
  const plan = planMachineSet({ set, machines, now })
  return {
    creates: plan.actions.filter((a) => a.type === 'create').length,
    deletes: plan.actions.filter((a) => a.type === 'delete').map((a) => a.machine.metadata.name),
    held: plan.expiry.held,
    plan,
  }
}

describe('expireAfter in the MachineSet planner', () => {
  it.each<
    [
      string,
      MachineSetObject,
      MachineObject[],
      { creates: number; deletes: string[]; held: number },
    ]
  >([
    [
      'nothing expired: nothing to do',
      expiringSet(3),
      [aged('a', 30), aged('b', 20), aged('c', 10)],
      { creates: 0, deletes: [], held: 0 },
    ],
    [
      'one expired: its replacement is created first, nothing deleted yet',
      expiringSet(3),
      [aged('a', 61), aged('b', 20), aged('c', 10)],
      { creates: 1, deletes: [], held: 0 },
    ],
    [
      'the replacement is not available yet: wait',
      expiringSet(3),
      [aged('a', 65), aged('b', 20), aged('c', 10), aged('new', 1, {})],
      { creates: 0, deletes: [], held: 0 },
    ],
    [
      'the replacement is available: the expired Machine goes',
      expiringSet(3),
      [aged('a', 65), aged('b', 20), aged('c', 10), aged('new', 1)],
      { creates: 0, deletes: ['a'], held: 0 },
    ],
    [
      'several expired, default allowance 1: one replacement in flight, the rest held',
      expiringSet(3),
      [aged('a', 90), aged('b', 80), aged('c', 70)],
      { creates: 1, deletes: [], held: 2 },
    ],
    [
      'oldest first: the oldest expired goes once a replacement is available',
      expiringSet(3),
      [aged('b', 80), aged('a', 90), aged('c', 70), aged('new', 1)],
      { creates: 0, deletes: ['a'], held: 2 },
    ],
    [
      'an expired Machine still leaving holds the next one (allowance 1)',
      expiringSet(3),
      [aged('a', 90, { ready: true, deleting: true }), aged('b', 80), aged('c', 70), aged('d', 1)],
      { creates: 0, deletes: [], held: 2 },
    ],
    [
      'allowance 2: two replacements at once',
      expiringSet(3, { allowed: 2 }),
      [aged('a', 90), aged('b', 80), aged('c', 10)],
      { creates: 2, deletes: [], held: 0 },
    ],
    [
      'allowance 0 (a budget of 0): every expiry replacement held',
      expiringSet(3, { allowed: 0, budget: 'spec.disruption.budgets[0] (0 Machines)' }),
      [aged('a', 90), aged('b', 80), aged('c', 10)],
      { creates: 0, deletes: [], held: 2 },
    ],
    [
      'allowance 0 after the surge: the expired Machine stays, the surge is kept',
      expiringSet(3, { allowed: 0 }),
      [aged('a', 90), aged('b', 20), aged('c', 10), aged('new', 5)],
      { creates: 0, deletes: [], held: 1 },
    ],
    [
      'a Failed Machine is replaced regardless; expiry waits until replicas are back',
      expiringSet(3),
      [aged('a', 90), aged('b', 20), aged('f', 10, { failed: { reason: 'X', message: 'y' } })],
      { creates: 0, deletes: ['f'], held: 0 },
    ],
    [
      'a Machine not available (still provisioning) counts against the allowance',
      expiringSet(3),
      [aged('a', 90), aged('b', 20), aged('c', 1, {})],
      { creates: 0, deletes: [], held: 1 },
    ],
    [
      'an interrupted Machine counts against the allowance: its replacement goes on, expiry waits',
      expiringSet(3),
      [aged('a', 90), aged('b', 20), aged('c', 10), underMaintenance('d', 30), aged('r', 5)],
      { creates: 0, deletes: ['d'], held: 1 },
    ],
    [
      'replicas missing: filled first, no surge',
      expiringSet(3),
      [aged('a', 90), aged('b', 20)],
      { creates: 1, deletes: [], held: 0 },
    ],
  ])('%s', (_name, set, machines, expected) => {
    const { plan: _plan, ...got } = outcome(set, machines)
    expect(got).toEqual(expected)
  })

  it('without expireAfter Machines never expire', () => {
    const { creates, deletes } = outcome(machineSet(2), [aged('a', 10_000), aged('b', 10_000)])
    expect({ creates, deletes }).toEqual({ creates: 0, deletes: [] })
  })

  it('looks again when the next Machine expires', () => {
    const { plan } = outcome(expiringSet(2), [aged('a', 50), aged('b', 20)])
    expect(plan.requeueAfterMs).toBe(10 * minute)
  })

  it('a full replacement round keeps at most one Machine in flight and ends with fresh Machines', () => {
    // Simulates passes: creates become ready at once, deletes take effect at once.
    const set = expiringSet(3)
    let machines = [aged('a', 90), aged('b', 80), aged('c', 70)]
    let fresh = 0
    for (let pass = 0; pass < 20; pass++) {
      const plan = planMachineSet({ set, machines, now })
      for (const action of plan.actions) {
        if (action.type === 'create') machines.push(aged(`n${fresh++}`, 0))
        if (action.type === 'delete') machines = machines.filter((m) => m !== action.machine)
      }
      expect(machines.length).toBeLessThanOrEqual(4)
      expect(machines.length).toBeGreaterThanOrEqual(3)
    }
    expect(machines.map((m) => m.metadata.name).sort()).toEqual(['n0', 'n1', 'n2'])
  })

  it('status: surge Machines are no scale-down, and ReplacementsHeld says which budget and until when', () => {
    const allowance = {
      allowed: 0,
      budget: 'spec.disruption.budgets[0] (0 Machines, window "0 9 * * 1-5" for 8h)',
      until: '2026-12-01T17:00:00.000Z',
    }
    const set = expiringSet(3, allowance)
    const machines = [aged('a', 90), aged('b', 20), aged('c', 10), aged('new', 5)]
    const plan = planMachineSet({ set, machines, now })
    const { status } = computeMachineSetStatus(
      set,
      {
        owned: plan.owned,
        replacement: plan.replacement,
        expiry: { plan: plan.expiry, allowance },
      },
      now,
    )
    const condition = (type: string) => status.conditions?.find((c) => c.type === type)
    expect(condition('ScalingDown')?.status).toBe('False')
    expect(condition('ReplacementsHeld')).toMatchObject({
      status: 'True',
      reason: 'DisruptionBudget',
    })
    expect(condition('ReplacementsHeld')?.message).toContain(
      'until' in allowance ? '2026-12-01T17:00:00.000Z' : '',
    )
    expect(condition('ReplacementsHeld')?.message).toContain('spec.disruption.budgets[0]')
  })
})
