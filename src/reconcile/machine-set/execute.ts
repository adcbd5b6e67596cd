/**
 * @module Carries out a MachineSet plan against the apiserver. Every action is idempotent and
 * attempted even when others fail; errors are collected for the caller, who writes status first
 * and then rethrows. A create that meets AlreadyExists lost a race to a concurrent reconcile
 * (deterministic names): the desired Machine exists, so it is not an error.
 */
import { machineApiTypes } from '../../api/resource-types'
import { errorMessage } from '../../errors'
import { hasKubeReason } from '../../kube/errors'
import type { KubeObject } from '../../kube/resource'
import { mapConcurrently } from '../../pool'
import type { ReconcileDeps } from '../runtime/controller'
import { recordEvent } from '../shared/events'
import type { MachineSetAction } from './plan'
import { controllerReference, type MachineSetObject } from './types'

/** Parallel apiserver calls per pass: fast enough for 100 Machines, gentle on the apiserver. */
const parallelism = 10

/** What happened, for Events and the caller's error handling. */
export interface ExecutionReport {
  created: string[]
  deleted: Array<{ name: string; reason: string }>
  adopted: string[]
  released: string[]
  updated: string[]
  errors: Array<{ action: MachineSetAction['type']; name: string; error: unknown }>
}

/**
 * Runs `actions` for `set`, at most `parallelism` at a time, deletes after everything else: an
 * interrupted Machine's replacement is asked for before the Machine goes (interruption-plan.ts).
 * The report lists what took effect in the plan's order (victims first to go first), not in the
 * order the calls happened to finish. No create starts after `createsUntil` (ms since the epoch):
 * past it, the names' claim may have expired and a concurrent pass may have named their
 * replacements (machine-names.ts).
 */
export async function executeMachineSetActions(
  deps: ReconcileDeps,
  set: MachineSetObject,
  actions: MachineSetAction[],
  createsUntil = Number.POSITIVE_INFINITY,
): Promise<ExecutionReport> {
  const attempt = async (action: MachineSetAction) => {
    if (action.type === 'create' && deps.clock.now().getTime() > createsUntil) {
      return 'skipped' as const
    }
    try {
      return (await run(deps, set, action)) ? ('done' as const) : ('skipped' as const)
    } catch (error) {
      return { error }
    }
  }
  const first = actions.filter((a) => a.type !== 'delete')
  const last = actions.filter((a) => a.type === 'delete')
  const results = new Map<MachineSetAction, Awaited<ReturnType<typeof attempt>>>()
  for (const wave of [first, last]) {
    const outcomes = await mapConcurrently(wave, parallelism, attempt)
    wave.forEach((action, i) => {
      results.set(action, outcomes[i] ?? 'skipped')
    })
  }
  const outcomes = actions.map((action) => results.get(action))
  const report: ExecutionReport = {
    created: [],
    deleted: [],
    adopted: [],
    released: [],
    updated: [],
    errors: [],
  }
  actions.forEach((action, i) => {
    const outcome = outcomes[i]
    const name = action.machine.metadata.name
    if (typeof outcome === 'object') report.errors.push({ action: action.type, name, ...outcome })
    if (outcome !== 'done') return
    if (action.type === 'delete') report.deleted.push({ name, reason: action.reason })
    else report[doneList[action.type]].push(name)
  })
  return report
}

/** Where a done action other than a delete is reported. */
const doneList = {
  create: 'created',
  adopt: 'adopted',
  release: 'released',
  update: 'updated',
} as const

/** Carries out one action; false when there was nothing to do (see the cases). */
async function run(
  deps: ReconcileDeps,
  set: MachineSetObject,
  action: MachineSetAction,
): Promise<boolean> {
  const type = machineApiTypes.machine
  const m = action.machine
  const ref = { namespace: m.metadata.namespace ?? set.metadata.namespace, name: m.metadata.name }
  switch (action.type) {
    case 'create':
      try {
        await deps.kube.create(type, m as KubeObject)
        return true
      } catch (error) {
        if (!hasKubeReason(error, 'AlreadyExists')) throw error
        return false
      }
    case 'delete':
      // The uid precondition keeps a stale plan from deleting a re-created namesake.
      try {
        return Boolean(await deps.kube.delete(type, ref, { uid: m.metadata.uid ?? '' }))
      } catch (error) {
        // Conflict: the name now belongs to another Machine; the next pass re-plans.
        if (!hasKubeReason(error, 'Conflict')) throw error
        return false
      }
    case 'adopt':
      // Conditional on resourceVersion: never adopt a Machine another controller just claimed.
      await deps.kube.mergePatch(type, ref, {
        metadata: {
          resourceVersion: m.metadata.resourceVersion,
          ownerReferences: [...(m.metadata.ownerReferences ?? []), controllerReference(set)],
        },
      })
      return true
    case 'release':
      await deps.kube.mergePatch(type, ref, {
        metadata: {
          resourceVersion: m.metadata.resourceVersion,
          ownerReferences: (m.metadata.ownerReferences ?? []).filter(
            (o) => o.uid !== set.metadata.uid,
          ),
        },
      })
      return true
    case 'update':
      await deps.kube.mergePatch(type, ref, action.patch)
      return true
    default: {
      const never: never = action
      throw new Error(`unknown action ${JSON.stringify(never)}`)
    }
  }
}

const names = (list: string[]) =>
  list.length > 10 ? `${list.slice(0, 10).join(', ')}, ...` : list.join(', ')

/**
 * Records one Event per kind of decision (not one per Machine, so a scale to 100 stays readable in
 * `kubectl describe`). Event failures are logged and ignored: Events are hints.
 */
export async function recordMachineSetEvents(
  deps: ReconcileDeps,
  set: MachineSetObject,
  report: ExecutionReport,
): Promise<void> {
  const events: Array<{ type: 'Normal' | 'Warning'; reason: string; message: string }> = []
  const n = (count: number) => (count === 1 ? '1 Machine' : `${count} Machines`)
  if (report.created.length > 0) {
    events.push({
      type: 'Normal',
      reason: 'SuccessfulCreate',
      message: `Created ${n(report.created.length)} for replicas ${set.spec.replicas}: ${names(report.created)}`,
    })
  }
  if (report.deleted.length > 0) {
    const list = report.deleted.map((d) => `${d.name} (${d.reason})`)
    events.push({
      type: 'Normal',
      reason: 'SuccessfulDelete',
      message: `Deleted ${n(report.deleted.length)} for replicas ${set.spec.replicas}: ${names(list)}`,
    })
  }
  if (report.adopted.length > 0) {
    events.push({ type: 'Normal', reason: 'Adopted', message: `Adopted ${names(report.adopted)}` })
  }
  if (report.released.length > 0) {
    events.push({
      type: 'Normal',
      reason: 'Released',
      message: `Released ${names(report.released)}: labels no longer match the selector`,
    })
  }
  for (const failure of report.errors.slice(0, 3)) {
    events.push({
      type: 'Warning',
      reason: `Failed${failure.action[0]?.toUpperCase()}${failure.action.slice(1)}`,
      message: `${failure.action} ${failure.name}: ${errorMessage(failure.error)}`,
    })
  }
  for (const event of events) await recordEvent(deps, set as KubeObject, event)
}
