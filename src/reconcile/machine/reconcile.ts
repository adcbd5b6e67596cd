/**
 * @module The Machine reconcile: read the Machine, observe its provider, instance and Node, then
 * plan (pure) and execute one action at a time, folding each raw outcome into the observation
 * (outcomes.ts) and recording the Events that tell it, until
 * the plan has nothing left to do. Status is computed once from the result and written last, with
 * a resourceVersion precondition (runtime/status-write.ts); a failure the plan leaves to the
 * runner's backoff is thrown only after it.
 */
import { machineApiTypes } from '../../api/resource-types'
import type { Machine } from '../../api/v1beta1/machine'
import { TransientError } from '../../errors'
import { hasKubeReason } from '../../kube/errors'
import type { ObjectKey } from '../../kube/object-key'
import type { KubeObject } from '../../kube/resource'
import type { Controller, ReconcileDeps, ReconcileResult } from '../runtime/controller'
import { writeStatus } from '../runtime/status-write'
import { recordEvent } from '../shared/events'
import { statusUnchanged } from '../shared/status-unchanged'
import { hasFinalizer, type MachinePlan, type MachinePlanSettings } from './actions'
import { executeMachineAction } from './execute'
import {
  defaultDeletionRetryMs,
  defaultNodeLookupRetryMs,
  defaultProviderCallTimeoutMs,
  type MachineDeps,
} from './machine-deps'
import type { MachineObservation } from './observation'
import { observeMachine } from './observe'
import { foldOutcome } from './outcomes'
import { planMachine } from './plan'
import { wokenByWatchEvent } from './settled-wake'
import { computeMachineStatus } from './status'

/** A bound on actions per reconcile; a plan still asking for more requeues at once. */
const maxActionsPerPass = 16

/** The Machine controller, for the runtime's registry. */
export const machineController: Controller<MachineDeps> = {
  kind: 'Machine',
  resource: machineApiTypes.machine,
  reconcile: (deps, key, observed, related) =>
    reconcileMachine(deps, key, wokenByWatchEvent(observed, related)),
}

/**
 * The Machine controller for the common runtime deps: the provider registry, this process's claim
 * holder (and tuning) are bound here, so the runner can hand every controller the same deps.
 */
export function machineControllerWith(
  bound: Pick<MachineDeps, 'providers' | 'claimHolder'>,
  tuning: Partial<Omit<MachineDeps, keyof ReconcileDeps | 'providers' | 'claimHolder'>> = {},
): Controller<ReconcileDeps> {
  return {
    kind: machineController.kind,
    resource: machineController.resource,
    reconcile: (deps, key, observed, related) =>
      reconcileMachine({ ...deps, ...tuning, ...bound }, key, wokenByWatchEvent(observed, related)),
  }
}

/** The planner's timings for `deps`. */
export function planSettings(deps: MachineDeps): MachinePlanSettings {
  return {
    // A claim older than the provider call timeout belongs to a reconcile that died.
    claimTtlMs: Math.ceil((deps.providerCallTimeoutMs ?? defaultProviderCallTimeoutMs) * 1.25),
    deletionRetryMs: deps.deletionRetryMs ?? defaultDeletionRetryMs,
    nodeLookupRetryMs: deps.nodeLookupRetryMs ?? defaultNodeLookupRetryMs,
  }
}

/** Reconciles one Machine; see the module comment. */
export async function reconcileMachine(
  deps: MachineDeps,
  key: ObjectKey,
  watchEvent = false,
): Promise<ReconcileResult> {
  const ref = { namespace: key.namespace, name: key.name }
  const machine = await deps.kube.get<Machine>(machineApiTypes.machine, ref)
  if (!machine) return {}
  const deleting = Boolean((machine as KubeObject).metadata?.deletionTimestamp)
  if (deleting && !hasFinalizer(machine as KubeObject)) return {}

  const now = deps.clock.now()
  const holder = deps.claimHolder
  const settings = planSettings(deps)
  const observed = await observeMachine(deps, machine, holder, watchEvent)
  const exec = { deps, provider: observed.provider, holder, now }
  let obs = observed.observation
  let plan = planMachine(obs, now, settings)
  for (let step = 0; plan.action && step < maxActionsPerPass; step++) {
    const before = withTimers(obs, plan)
    const outcome = await executeMachineAction(exec, before, plan.action)
    const folded = foldOutcome(before, plan.action, outcome, now)
    // Not awaited: an Event never holds up (or fails) the reconcile.
    for (const e of folded.events) void recordEvent(deps, folded.obs.machine as KubeObject, e)
    obs = folded.obs
    plan = planMachine(obs, now, settings)
  }
  obs = withTimers(obs, plan)
  // The runner abandoned this run (its deadline): a newer one owns the Machine now.
  deps.signal?.throwIfAborted()
  for (const e of plan.events) void recordEvent(deps, obs.machine as KubeObject, e)
  if (!deleted(obs))
    await writeMachineStatus(deps, obs.machine, computeMachineStatus(obs, plan, now))
  if (plan.backoff) throw new TransientError(plan.backoff.message, { reason: plan.backoff.reason })
  const requeueAfterMs = plan.action ? 0 : plan.requeueAfterMs
  return requeueAfterMs === undefined ? {} : { requeueAfterMs }
}

/**
 * Whether this reconcile removed the last finalizer of a Machine being deleted: the apiserver
 * then deletes it, so a status write could only fail with NotFound (one request per Machine).
 */
function deleted(obs: MachineObservation): boolean {
  return (
    obs.released === true && ((obs.machine as KubeObject).metadata?.finalizers ?? []).length === 0
  )
}

/** `obs` with the deletion timers `plan` starts. */
function withTimers(obs: MachineObservation, plan: MachinePlan): MachineObservation {
  if (!obs.deletion || !plan.startTimers || Object.keys(plan.startTimers).length === 0) return obs
  const startedTimers = { ...obs.deletion.startedTimers, ...plan.startTimers }
  return { ...obs, deletion: { ...obs.deletion, startedTimers } }
}

async function writeMachineStatus(
  deps: MachineDeps,
  machine: Machine,
  status: object,
): Promise<void> {
  // A converged Machine (most reconciles: sweeps, Node heartbeats) needs no write.
  if (statusUnchanged(machine.status, status)) return
  try {
    await writeStatus(deps.kube, machineApiTypes.machine, {
      observed: machine as KubeObject,
      status,
    })
  } catch (error) {
    // The finalizer was just removed and the Machine is gone: nothing left to report on.
    if (hasKubeReason(error, 'NotFound')) return
    throw error
  }
}
