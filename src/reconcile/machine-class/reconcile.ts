/**
 * @module The MachineClass controller: asks the class's provider what one Machine of it provides
 * (aws: DescribeInstanceTypes for the instance type; kwok: its allocatable) and writes it to the
 * class's `status.capacity` and `status.nodeInfo`, last and conditional on the resourceVersion
 * read. A controller rather than admission defaulting, because the answer needs the provider's
 * API and credentials (a webhook must answer fast and holds no cloud credentials) and because the
 * result is observed state, which belongs in status.
 */
import { machineApiTypes } from '../../api/resource-types'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import { PermanentError, TransientError } from '../../errors'
import type { ObjectKey } from '../../kube/object-key'
import type { KubeObject } from '../../kube/resource'
import type { ProviderRegistry } from '../../providers/registry'
import { namespacedSecretReader } from '../../providers/secret-reader'
import type { Controller, ReconcileDeps, ReconcileResult } from '../runtime/controller'
import { writeStatus } from '../runtime/status-write'
import { statusUnchanged } from '../shared/status-unchanged'
import { type CapacityOutcome, capacityCurrent, capacityStatus } from './capacity-status'

/** How long one provider call may take. */
const callTimeoutMs = 30_000

type ClassObject = MachineClass & KubeObject & { metadata: { generation?: number } }

async function askProvider(
  deps: ReconcileDeps,
  providers: ProviderRegistry,
  machineClass: ClassObject,
): Promise<CapacityOutcome> {
  const provider = providers.get(machineClass.spec.provider)
  if (!provider) {
    return {
      type: 'invalid',
      reason: 'UnknownProvider',
      message: `unknown provider "${machineClass.spec.provider}" (this deployment has: ${providers.names().join(', ') || 'none'})`,
    }
  }
  if (!provider.capacity) return { type: 'unsupported', provider: provider.name }
  try {
    const result = await provider.capacity({
      providerSpec: machineClass.spec.providerSpec,
      credentialsSecretRef: machineClass.spec.credentialsSecretRef,
      secrets: namespacedSecretReader(deps.kube, machineClass.metadata.namespace ?? ''),
      // The reconcile's own deadline too, so an abandoned reconcile stops asking.
      signal: deps.signal
        ? AbortSignal.any([deps.signal, AbortSignal.timeout(callTimeoutMs)])
        : AbortSignal.timeout(callTimeoutMs),
    })
    return { type: 'known', result }
  } catch (error) {
    if (error instanceof PermanentError) {
      return { type: 'invalid', reason: error.reason, message: error.message }
    }
    if (error instanceof TransientError) {
      return { type: 'unavailable', reason: error.reason, message: error.message }
    }
    throw error
  }
}

/** Reconciles one MachineClass's capacity status. */
export async function reconcileMachineClass(
  deps: ReconcileDeps & { providers: ProviderRegistry },
  key: ObjectKey,
): Promise<ReconcileResult> {
  const type = machineApiTypes.machineClass
  const machineClass = await deps.kube.get<ClassObject>(type, {
    namespace: key.namespace,
    name: key.name,
  })
  if (!machineClass || machineClass.metadata.deletionTimestamp) return {}
  if (capacityCurrent(machineClass)) return {}
  const outcome = await askProvider(deps, deps.providers, machineClass)
  const status = capacityStatus(machineClass, outcome, deps.clock.now())
  if (!statusUnchanged(machineClass.status, status)) {
    await writeStatus(deps.kube, type, { observed: machineClass, status })
  }
  // An unanswered question is asked again; the rest waits for a spec change.
  return outcome.type === 'unavailable' ? { requeueAfterMs: 30_000 } : {}
}

/** The MachineClass controller for the runtime (`--controllers machineclass`). */
export function machineClassControllerWith(providers: ProviderRegistry): Controller {
  return {
    kind: 'MachineClass',
    resource: machineApiTypes.machineClass,
    reconcile: (deps, key) => reconcileMachineClass({ ...deps, providers }, key),
  }
}
