import { describe, expect, it } from 'vitest'
import type { DisruptionBudget, DisruptionReason } from '../../../../src/api/shared/disruption'
import {
  describeBudget,
  evaluateBudgets,
  remainingAllowance,
} from '../../../../src/reconcile/disruption/budgets'

const friday = (time: string) => new Date(`2026-12-04T${time}Z`)
const businessHoursZero: DisruptionBudget = {
  machines: 0,
  schedule: '0 9 * * 1-5',
  duration: '8h',
}

describe('evaluateBudgets', () => {
  it.each<
    [string, DisruptionBudget[] | undefined, DisruptionReason, number, string, number | undefined]
  >([
    ['no budgets: nothing applies', undefined, 'Drift', 10, '12:00:00', undefined],
    ['an always-on count', [{ machines: 2 }], 'Drift', 10, '12:00:00', 2],
    [
      'the most restrictive of several wins',
      [{ machines: 3 }, { machines: 1 }],
      'Expiry',
      10,
      '12:00:00',
      1,
    ],
    [
      'a budget for other reasons does not apply',
      [{ machines: 0, reasons: ['Drift'] }],
      'Expiry',
      10,
      '12:00:00',
      undefined,
    ],
    [
      'a budget for this reason applies',
      [{ machines: 0, reasons: ['Drift', 'Expiry'] }],
      'Expiry',
      10,
      '12:00:00',
      0,
    ],
    [
      'a window that is open applies',
      [{ machines: 5 }, businessHoursZero],
      'Rollout',
      10,
      '12:00:00',
      0,
    ],
    [
      'a window that is closed does not',
      [{ machines: 5 }, businessHoursZero],
      'Rollout',
      10,
      '18:00:00',
      5,
    ],
    [
      'the window end is exclusive',
      [{ machines: 5 }, businessHoursZero],
      'Rollout',
      10,
      '17:00:00',
      5,
    ],
  ])('%s', (_name, budgets, reason, replicas, time, limit) => {
    expect(evaluateBudgets(budgets, { reason, replicas, now: friday(time) }).limit).toBe(limit)
  })

  // Rounded up, as Karpenter and PodDisruptionBudget maxUnavailable: a non-zero percentage of a
  // small deployment still lets replacements through, one at a time.
  it.each([
    ['10%', 5, 1],
    ['10%', 10, 1],
    ['10%', 11, 2],
    ['25%', 4, 1],
    ['50%', 3, 2],
    ['0%', 100, 0],
    ['100%', 7, 7],
    ['20%', 0, 0],
  ])('%s of %i Machines allows %i', (machines, replicas, limit) => {
    const result = evaluateBudgets([{ machines }], {
      reason: 'Drift',
      replicas,
      now: friday('12:00:00'),
    })
    expect(result.limit).toBe(limit)
  })

  it('names the budget that sets the limit and when a window next changes', () => {
    const open = evaluateBudgets([{ machines: 3 }, businessHoursZero], {
      reason: 'Drift',
      replicas: 10,
      now: friday('12:00:00'),
    })
    expect(open).toEqual({ limit: 0, index: 1, changesAt: friday('17:00:00') })
    const closed = evaluateBudgets([{ machines: 3 }, businessHoursZero], {
      reason: 'Drift',
      replicas: 10,
      now: friday('08:00:00'),
    })
    expect(closed).toEqual({ limit: 3, index: 0, changesAt: friday('09:00:00') })
  })

  it('a schedule that does not parse fails closed: the budget applies', () => {
    const result = evaluateBudgets([{ machines: 0, schedule: 'nonsense', duration: '1h' }], {
      reason: 'Drift',
      replicas: 10,
      now: friday('12:00:00'),
    })
    expect(result.limit).toBe(0)
  })
})

describe('remainingAllowance', () => {
  it.each([
    [2, 0, 2],
    [2, 1, 1],
    [2, 3, 0],
    [0, 0, 0],
  ])('limit %i with %i in flight leaves %i', (limit, inFlight, left) => {
    expect(remainingAllowance(limit, inFlight)).toBe(left)
  })
})

describe('describeBudget', () => {
  it('names the field, the count and the window', () => {
    expect(describeBudget(businessHoursZero, 1)).toBe(
      'spec.disruption.budgets[1] (0 Machines, window "0 9 * * 1-5" for 8h)',
    )
    expect(describeBudget({ machines: '10%' }, 0)).toBe('spec.disruption.budgets[0] (10% Machines)')
  })
})
