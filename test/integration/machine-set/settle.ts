/** @module Drives MachineSet reconciles until a set converges, as the runtime's queue would. */
import { machineApiTypes } from '../../../src/api/resource-types'
import { hasKubeReason } from '../../../src/kube/errors'
import { listMachines, reconcileMachineSet } from '../../../src/reconcile/machine-set/reconcile'
import type { MachineSetObject } from '../../../src/reconcile/machine-set/types'
import type { ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { waitFor } from '../../harness/kube'
import { markAllReady, ownedBy } from './fixture'

/**
 * One reconcile. What the runner would retry soon (a lost optimistic-concurrency race, or a
 * freshly installed CRD's storage still initializing) is retried by the next pass instead.
 */
export async function reconcileOnce(deps: ReconcileDeps, namespace: string, name: string) {
  try {
    await reconcileMachineSet(deps, { kind: 'MachineSet', namespace, name })
  } catch (error) {
    if (!hasKubeReason(error, 'Conflict', 'AlreadyExists', 'TooManyRequests')) throw error
  }
}

/**
 * Reconciles `name` (and, with `ready`, plays the Machine controller) until the set has exactly
 * spec.replicas Machines and a status for its generation that says so. Returns the set.
 */
export async function settleMachineSet(
  deps: ReconcileDeps,
  namespace: string,
  name: string,
  options: { ready?: boolean } = {},
): Promise<MachineSetObject> {
  return await waitFor(
    `MachineSet ${name} to converge`,
    async () => {
      await reconcileOnce(deps, namespace, name)
      if (options.ready) await markAllReady(deps.kube, namespace)
      const set = await deps.kube.get<MachineSetObject & { [k: string]: unknown }>(
        machineApiTypes.machineSet,
        { namespace, name },
      )
      if (!set) return false
      const replicas = set.spec.replicas ?? 0
      const owned = ownedBy(await listMachines(deps.kube, namespace), set.metadata.uid)
      const status = set.status
      const converged =
        owned.length === replicas &&
        status?.observedGeneration === set.metadata.generation &&
        status?.replicas === replicas &&
        (!options.ready || status?.availableReplicas === replicas)
      return converged ? set : false
    },
    { intervalMs: 20, timeoutMs: 90_000 },
  )
}

/** Sets replicas through the scale subresource, as kubectl scale and cluster-autoscaler do. */
export async function scaleTo(
  deps: ReconcileDeps,
  namespace: string,
  name: string,
  replicas: number,
  type = machineApiTypes.machineSet,
): Promise<void> {
  await deps.kube.mergePatch(
    type,
    { namespace, name },
    { spec: { replicas } },
    { subresource: 'scale' },
  )
}
