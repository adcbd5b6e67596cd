/**
 * @module What `plan` reads from the cluster (read-only: get and list): the live object, the
 * MachineSets a deployment controls, and the Machines of the namespace, exactly as the
 * controllers read them.
 */
import { machineApiTypes } from '../../api/resource-types'
import { systemClock } from '../../clock'
import type { KubeClient } from '../../kube/kube-client'
import { silentLogger } from '../../observability/logger'
import type { MachineDeploymentObject } from '../../reconcile/machine-deployment/machine-sets'
import { listDeploymentSets } from '../../reconcile/machine-deployment/reconcile'
import { listMachines } from '../../reconcile/machine-set/reconcile'
import type { MachineObject, MachineSetObject } from '../../reconcile/machine-set/types'
import type { PlannedKind } from './desired'

/** The cluster state a plan starts from. */
export interface PlanObservation {
  live: Record<string, unknown> | undefined
  sets: MachineSetObject[]
  machines: MachineObject[]
}

/** Reads the live `kind` `namespace/name`, its MachineSets (deployments) and the Machines. */
export async function observeForPlan(
  kube: KubeClient,
  kind: PlannedKind,
  ref: { namespace: string; name: string },
): Promise<PlanObservation> {
  const type =
    kind === 'MachineDeployment' ? machineApiTypes.machineDeployment : machineApiTypes.machineSet
  const live = await kube.get<Record<string, unknown> & { metadata: { name: string } }>(type, ref)
  const machines = await listMachines(kube, ref.namespace)
  if (kind === 'MachineSet' || !live) return { live, sets: [], machines }
  // The same read as the controller's (deps only carries the client here).
  const deps = { kube, clock: systemClock, log: silentLogger(), fieldManager: 'machine-api-plan' }
  const sets = await listDeploymentSets(deps, live as unknown as MachineDeploymentObject)
  return { live, sets, machines }
}
