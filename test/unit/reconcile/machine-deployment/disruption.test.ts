/**
 * Disruption budgets on a MachineDeployment's rollout and on its sets' expiry: a budget caps how
 * many Machines are in replacement at once; Machines unavailable for any reason count against it;
 * replacing unavailable Machines is never held.
 */
import { describe, expect, it } from 'vitest'
import type { DisruptionBudget } from '../../../../src/api/shared/disruption'
import { readExpiryAllowance } from '../../../../src/reconcile/disruption/allowance'
import { rolloutReasonAnnotation } from '../../../../src/reconcile/machine-deployment/disruption'
import { planMachineDeployment } from '../../../../src/reconcile/machine-deployment/plan'
import {
  planRollingUpdate,
  type RollingUpdateInput,
} from '../../../../src/reconcile/machine-deployment/rolling-update'
import { computeDeploymentStatus } from '../../../../src/reconcile/machine-deployment/status'
import type { MachineSetObject } from '../../../../src/reconcile/machine-set/types'
import { deployment, now, setFor } from './builders'

const set = (name: string, replicas: number, machines = replicas, available = machines) => ({
  name,
  replicas,
  machines,
  available,
})

describe('planRollingUpdate with a disruption allowance', () => {
  const base = (allowance: number | undefined, over: Partial<RollingUpdateInput> = {}) =>
    planRollingUpdate({
      replicas: 3,
      maxSurge: 1,
      maxUnavailable: 0,
      newSet: set('new', 0),
      oldSets: [set('old', 3)],
      ...(allowance === undefined ? {} : { disruptionAllowance: allowance }),
      ...over,
    }).scale

  it.each<[string, number | undefined, Partial<RollingUpdateInput>, Record<string, number>]>([
    ['no budget: surge by maxSurge', undefined, {}, { new: 1 }],
    ['allowance 1: the same single surge', 1, {}, { new: 1 }],
    ['allowance 0: no surge', 0, {}, {}],
    [
      'allowance 0: an available old Machine is not scaled down',
      0,
      { newSet: set('new', 1), oldSets: [set('old', 3)] },
      {},
    ],
    ['allowance 1 with maxSurge 3: one replacement, not three', 1, { maxSurge: 3 }, { new: 1 }],
    [
      'allowance 0 still removes an unavailable old Machine (involuntary)',
      0,
      { maxUnavailable: 1, maxSurge: 0, oldSets: [set('old', 3, 3, 2)] },
      { old: 2 },
    ],
    [
      'allowance 0 still fills below replicas (a removed Machine is replaced)',
      0,
      { newSet: set('new', 1), oldSets: [set('old', 1)] },
      { new: 2 },
    ],
    [
      'maxUnavailable 2, allowance 1: one old Machine down at a time',
      1,
      { maxSurge: 0, maxUnavailable: 2 },
      { old: 2 },
    ],
  ])('%s', (_name, allowance, over, expected) => {
    expect(base(allowance, over)).toEqual(expected)
  })
})

const budgets = (...list: DisruptionBudget[]) => ({ disruption: { budgets: list } })

/** A rollout in progress from class a (revision 1) to class b (revision 2). */
function rollingSets(
  newReplicas: number,
  newAvailable: number,
  oldReplicas: number,
): MachineSetObject[] {
  return [setFor('a', 1, oldReplicas), setFor('b', 2, newReplicas, newReplicas, newAvailable)]
}

describe('planMachineDeployment with disruption budgets', () => {
  it('a budget of 0 holds the rollout, and status says so and until when', () => {
    const md = deployment(3, 'b', budgets({ machines: 0, schedule: '0 9 * * *', duration: '8h' }))
    const sets = rollingSets(0, 0, 3)
    const plan = planMachineDeployment({ deployment: md, sets, now })
    expect(plan.actions.filter((a) => a.type === 'scale-set')).toEqual([])
    expect(plan.disruption?.rolloutHeld).toBe(true)
    const { status } = computeDeploymentStatus(md, sets, plan, now)
    const held = status.conditions?.find((c) => c.type === 'ReplacementsHeld')
    expect(held).toMatchObject({ status: 'True', reason: 'DisruptionBudget' })
    expect(held?.message).toContain(
      'spec.disruption.budgets[0] (0 Machines, window "0 9 * * *" for 8h)',
    )
    expect(held?.message).toContain('2026-12-01T17:00:00.000Z')
  })

  it('outside the window the budget does not apply: the rollout surges', () => {
    const md = deployment(3, 'b', budgets({ machines: 0, schedule: '0 12 * * *', duration: '1h' }))
    const plan = planMachineDeployment({ deployment: md, sets: rollingSets(0, 0, 3), now })
    expect(
      plan.actions.filter((a) => a.type === 'scale-set').map((a) => a.type === 'scale-set' && a.to),
    ).toEqual([1])
    expect(plan.disruption?.rolloutHeld).toBe(false)
    expect(plan.disruption?.changesAt).toEqual(new Date('2026-12-01T12:00:00Z'))
  })

  it('a Machine not available counts against the budget: no new surge until it is', () => {
    const md = deployment(3, 'b', budgets({ machines: 1 }))
    // The new set's one Machine is still provisioning.
    const plan = planMachineDeployment({ deployment: md, sets: rollingSets(1, 0, 3), now })
    expect(plan.actions.filter((a) => a.type === 'scale-set')).toEqual([])
  })

  it('reasons: a Drift-only budget does not hold a template rollout, and does hold a class change', () => {
    const md = deployment(3, 'b', budgets({ machines: 0, reasons: ['Drift'] }))
    const template = planMachineDeployment({ deployment: md, sets: rollingSets(0, 0, 3), now })
    expect(template.disruption?.rollout.reason).toBe('Rollout')
    expect(template.disruption?.rolloutHeld).toBe(false)
    const sets = rollingSets(0, 0, 3)
    const current = sets[1] as MachineSetObject
    current.metadata.annotations = {
      ...current.metadata.annotations,
      [rolloutReasonAnnotation]: JSON.stringify({ reason: 'ClassChanged', message: 'x' }),
    }
    const drift = planMachineDeployment({ deployment: md, sets, now })
    expect(drift.disruption?.rollout.reason).toBe('Drift')
    expect(drift.disruption?.rolloutHeld).toBe(true)
  })

  it('hands the current set its expiry allowance and older sets none', () => {
    const md = deployment(10, 'b', budgets({ machines: '20%', reasons: ['Expiry'] }))
    md.spec.template.spec.expireAfter = '720h'
    const sets = rollingSets(10, 10, 0)
    const plan = planMachineDeployment({ deployment: md, sets, now })
    const patched = (name: string) =>
      plan.actions.find((a) => a.type === 'patch-set' && a.set.metadata.name === name)
    const annotation = (name: string) => {
      const action = patched(name)
      const patch = action?.type === 'patch-set' ? action.patch : undefined
      const meta = patch?.metadata as { annotations?: Record<string, string> } | undefined
      return readExpiryAllowance(meta?.annotations)
    }
    const [old, current] = sets.map((s) => s.metadata.name) as [string, string]
    expect(annotation(current)).toEqual({
      allowed: 2,
      budget: 'spec.disruption.budgets[0] (20% Machines)',
    })
    expect(annotation(old).allowed).toBe(0)
  })

  it('without a budget for Expiry, a set replaces maxSurge expired Machines at a time', () => {
    const md = deployment(4, 'b', {
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2, maxUnavailable: 0 } },
    })
    md.spec.template.spec.expireAfter = '720h'
    const plan = planMachineDeployment({ deployment: md, sets: [setFor('b', 1, 4)], now })
    const action = plan.actions.find((a) => a.type === 'patch-set')
    const meta = (action?.type === 'patch-set' ? action.patch.metadata : undefined) as
      | { annotations?: Record<string, string> }
      | undefined
    expect(readExpiryAllowance(meta?.annotations).allowed).toBe(2)
  })
})
