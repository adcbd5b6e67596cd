/**
 * Drives the RollingUpdate planner together with a model of the MachineSet controller and of
 * Machines, in random event orders for many seeds, and checks the rollout bounds after every
 * event: Machines never exceed replicas + maxSurge, available Machines never drop below
 * replicas - maxUnavailable, and every rollout finishes. A second suite lets Machines fail (and a
 * health check remediate them): availability may then dip because of a failure, or because a set
 * carries out a scale-down planned before the failure, so the check becomes "no plan commits to
 * fewer available Machines than the floor": per set, min(available, replicas) summed over sets
 * never drops below the floor (or below what it was) at a planning step.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  planRollingUpdate,
  type RolloutSet,
} from '../../../../src/reconcile/machine-deployment/rolling-update'

type MachineState = 'starting' | 'available' | 'failed' | 'deleting'
interface SimSet {
  name: string
  replicas: number
  machines: MachineState[]
}

function view(set: SimSet): RolloutSet {
  return {
    name: set.name,
    replicas: set.replicas,
    machines: set.machines.length,
    available: set.machines.filter((m) => m === 'available').length,
  }
}

/** The MachineSet controller: deleting Machines count as replicas; unavailable ones go first. */
function reconcileSet(set: SimSet): void {
  const diff = set.machines.length - set.replicas
  if (diff < 0) {
    for (let i = 0; i < -diff; i++) set.machines.push('starting')
    return
  }
  let toDelete = diff - set.machines.filter((m) => m === 'deleting').length
  for (const wanted of ['failed', 'starting', 'available'] as const) {
    for (let i = 0; i < set.machines.length && toDelete > 0; i++) {
      if (set.machines[i] === wanted) {
        set.machines[i] = 'deleting'
        toDelete--
      }
    }
  }
}

interface Scenario {
  replicas: number
  maxSurge: number
  maxUnavailable: number
  seed: number
  /** Let Machines fail and be remediated (deleted) at random. */
  failures?: boolean
}

function simulate({ replicas, maxSurge, maxUnavailable, seed, failures }: Scenario): {
  steps: number
  violations: string[]
} {
  const random = fc.sample(fc.integer({ min: 0, max: 1_000_000 }), { seed, numRuns: 5000 })
  let cursor = 0
  const next = (n: number) => (random[cursor++ % random.length] ?? 0) % n
  const oldSet: SimSet = { name: 'old', replicas, machines: Array(replicas).fill('available') }
  const newSet: SimSet = { name: 'new', replicas: 0, machines: [] }
  const violations: string[] = []
  const effectiveUnavailable = maxSurge === 0 && maxUnavailable === 0 ? 1 : maxUnavailable
  let steps = 0
  const done = () =>
    oldSet.machines.length === 0 &&
    newSet.replicas === replicas &&
    newSet.machines.length === replicas &&
    newSet.machines.every((m) => m === 'available')
  const availableNow = () =>
    [...oldSet.machines, ...newSet.machines].filter((m) => m === 'available').length
  const committed = () =>
    [oldSet, newSet].reduce((sum, set) => sum + Math.min(view(set).available, set.replicas), 0)
  while (!done() && steps < 4000) {
    steps++
    const before = committed()
    const event = next(failures ? 6 : 4)
    switch (event) {
      case 0: {
        const plan = planRollingUpdate({
          replicas,
          maxSurge,
          maxUnavailable,
          newSet: view(newSet),
          oldSets: [view(oldSet)],
        })
        for (const set of [newSet, oldSet]) set.replicas = plan.scale[set.name] ?? set.replicas
        break
      }
      case 1:
        reconcileSet(next(2) === 0 ? newSet : oldSet)
        break
      case 2: {
        const set = next(2) === 0 ? newSet : oldSet
        const i = set.machines.indexOf('starting')
        if (i >= 0) set.machines[i] = 'available'
        break
      }
      case 3: {
        const set = next(2) === 0 ? newSet : oldSet
        const i = set.machines.indexOf('deleting')
        if (i >= 0) set.machines.splice(i, 1)
        break
      }
      case 4: {
        // Rarely, a Machine breaks (its Node goes NotReady).
        if (next(8) !== 0) break
        const set = next(2) === 0 ? newSet : oldSet
        const i = set.machines.findIndex((m) => m === 'available' || m === 'starting')
        if (i >= 0) set.machines[i] = 'failed'
        break
      }
      default: {
        // A health check remediates a failed Machine by deleting it.
        const set = next(2) === 0 ? newSet : oldSet
        const i = set.machines.indexOf('failed')
        if (i >= 0) set.machines[i] = 'deleting'
      }
    }
    const total = oldSet.machines.length + newSet.machines.length
    const available = availableNow()
    const floor = replicas - effectiveUnavailable
    if (total > replicas + maxSurge) violations.push(`step ${steps}: ${total} machines`)
    if (!failures && available < floor) violations.push(`step ${steps}: ${available} available`)
    const after = committed()
    if (failures && event === 0 && after < floor && after < before)
      violations.push(`step ${steps}: plan commits to ${after} available (was ${before})`)
  }
  if (!done()) violations.push(`did not finish in ${steps} steps`)
  return { steps, violations }
}

describe('RollingUpdate simulation', () => {
  it.each([
    { replicas: 10, maxSurge: 2, maxUnavailable: 1 },
    { replicas: 10, maxSurge: 0, maxUnavailable: 1 },
    { replicas: 10, maxSurge: 1, maxUnavailable: 0 },
    { replicas: 5, maxSurge: 0, maxUnavailable: 0 },
    { replicas: 3, maxSurge: 3, maxUnavailable: 3 },
    { replicas: 1, maxSurge: 1, maxUnavailable: 0 },
  ])(
    'keeps the bounds and finishes for %o over 200 seeds',
    (strategy) => {
      for (let seed = 1; seed <= 200; seed++) {
        const { violations } = simulate({ ...strategy, seed })
        expect(violations, `seed ${seed}`).toEqual([])
      }
    },
    60_000,
  )
})

describe('RollingUpdate simulation with failing Machines', () => {
  it.each([
    { replicas: 10, maxSurge: 2, maxUnavailable: 1 },
    { replicas: 10, maxSurge: 0, maxUnavailable: 2 },
    { replicas: 4, maxSurge: 1, maxUnavailable: 0 },
  ])(
    'never plans below the floor, and finishes, for %o over 200 seeds',
    (strategy) => {
      for (let seed = 1; seed <= 200; seed++) {
        const { violations } = simulate({ ...strategy, seed, failures: true })
        expect(violations, `seed ${seed}`).toEqual([])
      }
    },
    60_000,
  )
})

describe('planRollingUpdate', () => {
  it('surges the new set first when old Machines are all available', () => {
    const plan = planRollingUpdate({
      replicas: 10,
      maxSurge: 2,
      maxUnavailable: 1,
      newSet: { name: 'new', replicas: 0, machines: 0, available: 0 },
      oldSets: [{ name: 'old', replicas: 10, machines: 10, available: 10 }],
    })
    expect(plan.scale).toEqual({ new: 2, old: 9 })
  })

  it('removes unavailable old replicas without spending availability', () => {
    const plan = planRollingUpdate({
      replicas: 4,
      maxSurge: 0,
      maxUnavailable: 0,
      newSet: { name: 'new', replicas: 4, machines: 4, available: 4 },
      oldSets: [{ name: 'old', replicas: 2, machines: 2, available: 0 }],
    })
    expect(plan.scale).toEqual({ old: 0 })
  })
})
