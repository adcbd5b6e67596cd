/**
 * @module `machine-api adopt` without its command line: read the units, refuse all of them when
 * any has a standing problem (nothing half-adopted), else plan and execute each unit's steps
 * until it is done, waiting (up to `waitMs`) for the adopted Machines to reach Running before the
 * source is released. Every pass reads the world again, so the same request resumes a run that
 * died at any point, and `rollback` takes it back the same way.
 */

import type { Logger } from '../observability/logger'
import { mapConcurrently } from '../pool'
import { tagKeys } from '../providers/aws/tags'
import type { Timers } from '../timers'
import { type ExecuteDeps, executeAdoptStep, executeRollbackStep } from './execute'
import { readTargetState } from './observe'
import { type AdoptStep, planAdoption, targetProblems } from './plan'
import { planRollback, type RollbackStep, rollbackProblems } from './plan-rollback'
import { type AdoptionProblem, formatProblem, standingProblems } from './problems'
import { type AdoptSource, readUnits } from './read-sources'
import { describeRef } from './source-types'
import type { TargetState } from './state'
import type { TargetOptions } from './targets'
import { ADOPTED_FROM, type AdoptionUnit } from './unit'

/** What the command asks. */
export interface AdoptRequest {
  source: AdoptSource
  target: TargetOptions
  /** Field paths (or `object:path`) whose loss is accepted. */
  force: readonly string[]
  dryRun: boolean
  rollback: boolean
  /** How long to wait for the adopted Machines to run before giving up (rerun to go on). */
  waitMs: number
  pollMs?: number | undefined
}

/** The I/O and the clock. */
export interface AdoptDeps extends ExecuteDeps {
  log: Logger
  timers: Timers
}

/** How one unit ended. */
export interface UnitReport {
  title: string
  outcome: 'refused' | 'planned' | 'adopted' | 'waiting' | 'failed' | 'rolled-back'
  problems: string[]
  /** Steps taken (or, for a dry run, to take), in order. */
  steps: string[]
  notes: string[]
  machines: number
}

/** The whole run, and its exit code (0 only when every unit ended as asked). */
export interface AdoptReport {
  units: UnitReport[]
  exitCode: number
}

/** Runs `request`. */
export async function runAdoption(deps: AdoptDeps, request: AdoptRequest): Promise<AdoptReport> {
  const units = await readUnits(deps, request.source, request.target)
  const states = await Promise.all(units.map((unit) => readTargetState(deps, unit)))
  const checked = units.map((unit, i) => checkUnit(unit, states[i] as TargetState, request))
  if (checked.some((c) => c.problems.length > 0)) {
    return {
      units: checked.map((c) =>
        report(c.unit, c.problems.length > 0 ? 'refused' : 'planned', c.problems, []),
      ),
      exitCode: 1,
    }
  }
  if (request.dryRun) {
    return { units: units.map((u) => report(u, 'planned', [], describeSteps(u))), exitCode: 0 }
  }
  const reports: UnitReport[] = []
  for (const { unit, alreadyDone } of checked) {
    if (alreadyDone) reports.push(report(unit, 'adopted', [], []))
    else if (request.rollback) reports.push(await rollBack(deps, unit))
    else reports.push(await adopt(deps, unit, request))
  }
  const ok = reports.every((r) => r.outcome === (request.rollback ? 'rolled-back' : 'adopted'))
  return { units: reports, exitCode: ok ? 0 : 1 }
}

function checkUnit(
  unit: AdoptionUnit,
  state: TargetState,
  request: AdoptRequest,
): { unit: AdoptionUnit; problems: string[]; alreadyDone: boolean } {
  const made = state.deployment ?? state.set
  const madeFromSource = made?.metadata.annotations?.[ADOPTED_FROM] === unit.title
  if (unit.sourceMissing && madeFromSource) {
    return { unit, problems: [], alreadyDone: true }
  }
  const found: AdoptionProblem[] = [
    ...unit.problems.filter((p) => !(p.leftByRelease && madeFromSource)),
    ...targetProblems(unit, state),
    ...(request.rollback ? rollbackProblems(unit, state) : []),
  ]
  const problems = standingProblems(found, request.force).map(formatProblem)
  return { unit, problems, alreadyDone: false }
}

function report(
  unit: AdoptionUnit,
  outcome: UnitReport['outcome'],
  problems: string[],
  steps: string[],
): UnitReport {
  return {
    title: unit.title,
    outcome,
    problems,
    steps,
    notes: unit.notes,
    machines: unit.machines.length,
  }
}

/** Steps that must run one at a time, in order: releases go bottom-up. */
const sequential = (steps: readonly AdoptStep[]) => steps.some((s) => s.type === 'release')

async function adopt(
  deps: AdoptDeps,
  unit: AdoptionUnit,
  request: AdoptRequest,
): Promise<UnitReport> {
  const taken: string[] = []
  const deadline = deps.timers.now() + request.waitMs
  for (;;) {
    const plan = planAdoption(unit, await readTargetState(deps, unit))
    if (plan.failed) return report(unit, 'failed', [plan.failed], taken)
    if (plan.done) return report(unit, 'adopted', [], taken)
    if (plan.steps.length > 0) {
      const run = (step: AdoptStep) => executeAdoptStep(deps, step, unit.namespace)
      if (sequential(plan.steps)) for (const step of plan.steps) await run(step)
      else await mapConcurrently(plan.steps, 20, run)
      taken.push(...plan.steps.map(describeStep))
      deps.log.info(
        { unit: unit.title, steps: plan.steps.length, kind: plan.steps[0]?.type },
        'adoption steps done',
      )
      continue
    }
    if (deps.timers.now() >= deadline) {
      const message = `waiting for ${plan.waiting.length} Machine(s) to be Running on their Nodes (${plan.waiting.slice(0, 5).join(', ')}${plan.waiting.length > 5 ? ', ...' : ''}): is the machine-api worker running? Run the same command again to go on`
      return report(unit, 'waiting', [message], taken)
    }
    await pause(deps.timers, request.pollMs ?? 2000)
  }
}

async function rollBack(deps: AdoptDeps, unit: AdoptionUnit): Promise<UnitReport> {
  const taken: string[] = []
  for (;;) {
    const plan = planRollback(unit, await readTargetState(deps, unit))
    if (plan.done) return report(unit, 'rolled-back', [], taken)
    await mapConcurrently(plan.steps, 20, (step) => executeRollbackStep(deps, step, unit.namespace))
    taken.push(...plan.steps.map(describeRollbackStep))
  }
}

function pause(timers: Timers, ms: number): Promise<void> {
  return new Promise((resolve) => timers.setTimer(ms, resolve))
}

/** A step as the report names it. */
export function describeStep(step: AdoptStep): string {
  switch (step.type) {
    case 'pause':
      return `pause ${describeRef(step.ref)}`
    case 'create': {
      const meta = step.object.metadata as { name?: string }
      return `create ${String(step.object.kind)} ${meta.name ?? ''}`
    }
    case 'tag-instance':
      return `tag instance ${step.instanceId} as Machine ${step.tags[tagKeys.machineName] ?? ''}`
    case 'unpause-deployment':
      return `unpause MachineDeployment ${step.name}`
    case 'release':
      return `release ${describeRef(step.ref)} (finalizers off, deleted; nothing terminates)`
  }
}

/** What a run would do for `unit`, in order (the dry run's output). */
export function describeSteps(unit: AdoptionUnit): string[] {
  const name = (obj: Record<string, unknown> | undefined) =>
    (obj?.metadata as { name?: string } | undefined)?.name ?? ''
  return [
    ...unit.pause.map((ref) => `pause ${describeRef(ref)}`),
    ...(unit.machineClass ? [`create MachineClass ${name(unit.machineClass)}`] : []),
    ...(unit.deployment ? [`create MachineDeployment ${name(unit.deployment)} (paused)`] : []),
    ...unit.machines.map(
      (m) =>
        `create Machine ${m.name} for instance ${m.instance.id} in ${m.instance.zone} on Node ${m.nodeName}, tag the instance`,
    ),
    ...(unit.set ? [`create MachineSet ${name(unit.set)}`] : []),
    ...(unit.deployment
      ? [`create the MachineSet of MachineDeployment ${name(unit.deployment)}, unpause it`]
      : []),
    'wait until every adopted Machine is Running on its Node',
    ...unit.machines.flatMap((m) => m.release.map((ref) => `release ${describeRef(ref)}`)),
    ...unit.releaseAfter.map((ref) => `release ${describeRef(ref)}`),
  ]
}

/** A rollback step as the report names it. */
function describeRollbackStep(step: RollbackStep): string {
  if (step.type === 'untag-instance') return `untag instance ${step.instanceId}`
  if (step.type === 'unpause') return `unpause ${describeRef(step.ref)}`
  return `${step.type} ${step.name}`
}
