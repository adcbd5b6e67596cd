/**
 * @module The Machine reconcile: read the Machine, ensure the finalizer, resolve its provider, then
 * either provision and link the Node or run the deletion sequence, and write the status last (with
 * a resourceVersion precondition). Phases record facts in the scope; status.ts turns them into
 * conditions.
 */

import { machineApiTypes } from '../../api/resource-types'
import type { Machine } from '../../api/v1beta1/machine'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import { hasKubeReason } from '../../kube/errors'
import type { ObjectKey } from '../../kube/object-key'
import type { ProviderRegistry } from '../../providers/registry'
import { typedActuator } from '../../providers/typed-actuator'
import type { Controller, ReconcileDeps, ReconcileResult } from '../runtime/controller'
import { findCondition } from '../shared/conditions'
import { type DeletionProvider, reconcileDeletion } from './deletion'
import { configurationRetryMs, type MachineDeps, machineFinalizer } from './machine-deps'
import { earliestRequeue, type MachineScope, meta, newScope } from './machine-scope'
import { reconcileNode } from './node-linking'
import { providerContext, recordEvent } from './provider-context'
import { resolveProvider } from './provider-resolution'
import { reconcileInfrastructure } from './provision'
import { computeMachineStatus } from './status'
import { statusUnchanged } from './status-unchanged'

/** The Machine controller, for the runtime's registry. */
export const machineController: Controller<MachineDeps> = {
  kind: 'Machine',
  resource: machineApiTypes.machine,
  reconcile: reconcileMachine,
}

/**
 * The Machine controller for the common runtime deps: the provider registry (and tuning) are
 * bound here, so the runner can hand every controller the same deps.
 */
export function machineControllerWith(
  providers: ProviderRegistry,
  tuning: Partial<Omit<MachineDeps, keyof ReconcileDeps | 'providers'>> = {},
): Controller<ReconcileDeps> {
  return {
    kind: machineController.kind,
    resource: machineController.resource,
    reconcile: (deps, key) => reconcileMachine({ ...deps, ...tuning, providers }, key),
  }
}

/** Reconciles one Machine; see the module comment for the order of phases. */
export async function reconcileMachine(
  deps: MachineDeps,
  key: ObjectKey,
): Promise<ReconcileResult> {
  const ref = { namespace: key.namespace, name: key.name }
  let machine = await deps.kube.get<Machine>(machineApiTypes.machine, ref)
  if (!machine) return {}
  const finalizers = meta(machine).finalizers ?? []
  const deleting = Boolean(meta(machine).deletionTimestamp)
  if (deleting && !finalizers.includes(machineFinalizer)) return {}
  if (!deleting && !finalizers.includes(machineFinalizer)) {
    // First, so a delete that races the create cannot leave an instance behind.
    machine = await deps.kube.mergePatch<Machine>(machineApiTypes.machine, ref, {
      metadata: {
        finalizers: [...finalizers, machineFinalizer],
        resourceVersion: meta(machine).resourceVersion,
      },
    })
  }

  const scope = newScope(machine, deps.clock.now())
  const provider = await resolveMachineProvider(deps, machine)
  if (deleting) {
    await reconcileDeletion(deps, scope, provider)
  } else if ('problem' in provider) {
    recordProviderProblem(deps, scope, provider.problemReason, provider.problem)
  } else {
    await reconcileInfrastructure(deps, scope, provider.actuator, provider.ctx)
    if (!scope.failure) await reconcileNode(deps, scope)
  }
  await writeStatus(deps, scope)
  const requeueAfterMs = earliestRequeue(scope)
  return requeueAfterMs === undefined ? {} : { requeueAfterMs }
}

type ResolvedProvider = DeletionProvider & { problemReason?: string }

async function resolveMachineProvider(
  deps: MachineDeps,
  machine: Machine,
): Promise<ResolvedProvider> {
  const classRef = machine.spec.classRef
  const machineClass = classRef
    ? await deps.kube.get<MachineClass>(machineApiTypes.machineClass, {
        namespace: machine.metadata.namespace,
        name: classRef.name,
      })
    : undefined
  const resolution = resolveProvider(machine, machineClass)
  if (!resolution.ok) return { problem: resolution.message, problemReason: resolution.reason }
  const provider = deps.providers.get(resolution.provider)
  if (!provider) {
    return {
      problem: `provider "${resolution.provider}" is not available in this deployment (have: ${deps.providers.names().join(', ') || 'none'})`,
      problemReason: 'UnknownProvider',
    }
  }
  return {
    actuator: typedActuator(provider.actuator),
    ctx: providerContext(deps, machine, resolution),
  }
}

/** A configuration problem the user must fix: a condition, one Event per change, a slow re-check. */
function recordProviderProblem(
  deps: MachineDeps,
  scope: MachineScope,
  reason = 'ProviderUnavailable',
  message = '',
): void {
  scope.providerProblem = { reason, message }
  const previous = findCondition(scope.machine.status?.conditions, 'InfrastructureReady')
  if (previous?.reason !== reason) recordEvent(deps, scope.machine, 'Warning', reason, message)
  scope.requeueAfterMs.push(configurationRetryMs)
}

async function writeStatus(deps: MachineDeps, scope: MachineScope): Promise<void> {
  const m = meta(scope.machine)
  const status = computeMachineStatus(scope)
  // A converged Machine (most reconciles: sweeps, Node heartbeats) needs no write.
  if (statusUnchanged(scope.machine.status, status)) return
  try {
    await deps.kube.mergePatch(
      machineApiTypes.machine,
      { namespace: m.namespace, name: m.name ?? '' },
      { metadata: { resourceVersion: m.resourceVersion }, status },
      { subresource: 'status' },
    )
  } catch (error) {
    // The finalizer was just removed and the Machine is gone: nothing left to report on.
    if (hasKubeReason(error, 'NotFound')) return
    throw error
  }
}
