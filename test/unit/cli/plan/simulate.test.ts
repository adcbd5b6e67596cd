/**
 * The plan simulation with the real planners, no cluster: rollouts, scaling, a new deployment and a
 * MachineSet scale-down, plus the bounds holding after every step and determinism.
 */
import { describe, expect, it } from 'vitest'
import { renderPlan } from '../../../../src/cli/plan/render'
import { simulateDeployment, simulateMachineSet } from '../../../../src/cli/plan/simulate'
import type { PlanReport } from '../../../../src/cli/plan/steps'
import {
  machineSetNameFor,
  templateHash,
} from '../../../../src/reconcile/machine-deployment/template-hash'
import { machineNameForIndex } from '../../../../src/reconcile/machine-set/machine-names'
import { deployment, existingSet, readyMachines } from './fixtures'

const startMs = Date.UTC(2026, 1, 1)

function rollout(options: { maxSurge?: number; maxUnavailable?: number; replicas?: number } = {}) {
  const old = deployment('a')
  const set = existingSet(old, 'a', 1, 3)
  const machines = readyMachines(set, 3)
  const desired = deployment('b', options)
  const report = simulateDeployment({ desired, exists: true, sets: [set], machines, startMs })
  return { set, machines, desired, report }
}

/** Machines and available Machines after each step, replaying the entries. */
function footprints(report: PlanReport, start: number): number[] {
  let count = start
  return report.steps.map((step) => {
    for (const e of step.entries)
      count += e.type === 'create-machine' ? 1 : e.type === 'delete-machine' ? -1 : 0
    return count
  })
}

/**
 * The steps without the outdated mark's updates (an old set and its Machines get the annotation
 * machine-api.dev/outdated; up-to-date tests cover it), so the replica steps read alone.
 */
function rolloutSteps(report: PlanReport) {
  const mark = (e: PlanReport['steps'][number]['entries'][number]) =>
    (e.type === 'update-set' || e.type === 'update-machine') &&
    JSON.stringify((e as { fields?: unknown }).fields) === '["metadata.annotations"]'
  return report.steps.map((s) => s.entries.filter((e) => !mark(e))).filter((s) => s.length > 0)
}

describe('simulateDeployment', () => {
  it('rolls a template change out one Machine at a time with maxSurge 1 / maxUnavailable 0', () => {
    const { set, machines, desired, report } = rollout()
    const next = machineSetNameFor('workers', templateHash(desired.spec.template))
    const old = set.metadata.name
    const [m0, m1, m2] = machines.map((m) => m.metadata.name)
    const victim = (machine: string | undefined) => ({
      type: 'delete-machine',
      set: old,
      machine,
      reason: 'deletePolicy Oldest',
    })
    expect(rolloutSteps(report)).toEqual([
      [
        { type: 'create-set', set: next, revision: 2, replicas: 1 },
        { type: 'create-machine', set: next, machine: `${next}-<new-1>` },
      ],
      [{ type: 'scale-set', set: old, from: 3, to: 2 }, victim(m0)],
      [
        { type: 'scale-set', set: next, from: 1, to: 2 },
        { type: 'create-machine', set: next, machine: `${next}-<new-2>` },
      ],
      [{ type: 'scale-set', set: old, from: 2, to: 1 }, victim(m1)],
      [
        { type: 'scale-set', set: next, from: 2, to: 3 },
        { type: 'create-machine', set: next, machine: `${next}-<new-3>` },
      ],
      [{ type: 'scale-set', set: old, from: 1, to: 0 }, victim(m2)],
    ])
    expect(report.converged).toBe(true)
    expect(report.final).toEqual([
      { set: old, replicas: 0, machines: 0 },
      { set: next, replicas: 3, machines: 3 },
    ])
  })

  it.each([
    { maxSurge: 1, maxUnavailable: 0, max: 4, min: 3 },
    { maxSurge: 2, maxUnavailable: 1, max: 5, min: 2 },
    { maxSurge: 0, maxUnavailable: 1, max: 3, min: 2 },
  ])(
    'keeps between $min and $max Machines after every step (surge $maxSurge, unavailable $maxUnavailable)',
    ({ max, min, ...bounds }) => {
      const { report } = rollout(bounds)
      const counts = footprints(report, 3)
      expect(Math.max(...counts)).toBeLessThanOrEqual(max)
      expect(Math.min(...counts)).toBeGreaterThanOrEqual(min)
      expect(counts.at(-1)).toBe(3)
      expect(report.converged).toBe(true)
    },
  )

  it('plans nothing when the manifest matches the cluster', () => {
    const md = deployment('a')
    const set = existingSet(md, 'a', 1, 3)
    const report = simulateDeployment({
      desired: md,
      exists: true,
      sets: [set],
      machines: readyMachines(set, 3),
      startMs,
    })
    expect(report.steps).toEqual([])
    expect(report.converged).toBe(true)
    expect(renderPlan(report)).toContain('no changes')
  })

  it('scales up without a rollout, naming the new Machines of an existing set', () => {
    const md = deployment('a')
    const set = existingSet(md, 'a', 1, 3)
    const desired = deployment('a', { replicas: 5 })
    const report = simulateDeployment({
      desired,
      exists: true,
      sets: [set],
      machines: readyMachines(set, 3),
      startMs,
    })
    const name = set.metadata.name
    const slot = (i: number) => machineNameForIndex(name, set.metadata.uid ?? '', i)
    expect(rolloutSteps(report)).toEqual([
      [
        { type: 'scale-set', set: name, from: 3, to: 5 },
        { type: 'create-machine', set: name, machine: slot(3) },
        { type: 'create-machine', set: name, machine: slot(4) },
      ],
    ])
  })

  it('creates the first MachineSet of a new deployment at full size', () => {
    const desired = deployment('a')
    const report = simulateDeployment({ desired, exists: false, sets: [], machines: [], startMs })
    const set = machineSetNameFor('workers', templateHash(desired.spec.template))
    expect(report.steps).toHaveLength(1)
    expect(report.steps[0]?.entries[0]).toEqual({
      type: 'create-set',
      set,
      revision: 1,
      replicas: 3,
    })
    expect(report.steps[0]?.entries.filter((e) => e.type === 'create-machine')).toHaveLength(3)
    expect(renderPlan(report)).toContain('MachineDeployment ns/workers (new): 1 step')
  })

  it('under OnDelete creates the new set empty and only stops the old one from creating', () => {
    const md = deployment('a')
    const set = existingSet(md, 'a', 1, 3)
    const desired = deployment('b')
    desired.spec.strategy = { type: 'OnDelete' }
    const report = simulateDeployment({
      desired,
      exists: true,
      sets: [set],
      machines: readyMachines(set, 3),
      startMs,
    })
    const entries = report.steps.flatMap((s) => s.entries)
    // The old set is stopped and marked; its Machines get the mark (UpToDate False), nothing more.
    expect(entries.map((e) => e.type).sort()).toEqual([
      'create-set',
      'update-machine',
      'update-machine',
      'update-machine',
      'update-set',
    ])
    expect(entries).toContainEqual(expect.objectContaining({ type: 'create-set', replicas: 0 }))
    expect(report.converged).toBe(true)
  })

  it('while paused only scales, without starting the rollout', () => {
    const md = deployment('a')
    const set = existingSet(md, 'a', 1, 3)
    const desired = deployment('b', { replicas: 4 })
    desired.spec.paused = true
    const report = simulateDeployment({
      desired,
      exists: true,
      sets: [set],
      machines: readyMachines(set, 3),
      startMs,
    })
    const entries = report.steps.flatMap((s) => s.entries)
    expect(entries[0]).toEqual({ type: 'scale-set', set: set.metadata.name, from: 3, to: 4 })
    expect(entries.filter((e) => e.type === 'create-set')).toEqual([])
  })

  it('is deterministic: the same input prints the same plan', () => {
    expect(renderPlan(rollout({ maxSurge: 2, maxUnavailable: 1 }).report)).toBe(
      renderPlan(rollout({ maxSurge: 2, maxUnavailable: 1 }).report),
    )
  })

  it('stops after maxSteps and says it did not converge', () => {
    const { set, machines, desired } = rollout()
    const report = simulateDeployment({
      desired,
      exists: true,
      sets: [set],
      machines,
      startMs,
      maxSteps: 2,
    })
    expect(report.steps).toHaveLength(2)
    expect(report.converged).toBe(false)
    expect(renderPlan(report)).toContain('did not converge')
  })
})

describe('simulateMachineSet', () => {
  it('deletes the oldest Machines first on a scale-down with deletePolicy Oldest', () => {
    const md = deployment('a')
    const set = existingSet(md, 'a', 1, 3)
    const machines = readyMachines(set, 3)
    const desired = { ...set, spec: { ...set.spec, replicas: 1, deletePolicy: 'Oldest' as const } }
    const report = simulateMachineSet({ desired, exists: true, sets: [], machines, startMs })
    expect(rolloutSteps(report)).toEqual([
      machines.slice(0, 2).map((m) => ({
        type: 'delete-machine',
        set: set.metadata.name,
        machine: m.metadata.name,
        reason: 'deletePolicy Oldest',
      })),
    ])
    expect(report.final).toEqual([{ set: set.metadata.name, replicas: 1, machines: 1 }])
  })
})
