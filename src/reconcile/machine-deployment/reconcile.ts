/**
 * @module The MachineDeployment controller: read the deployment and the MachineSets it controls,
 * plan, act, write status last (conditional on the resourceVersion read), and return the earliest
 * timer (the progress deadline). It reads MachineSets only, never Machines: the sets' status
 * carries the counts the rollout bounds need.
 */
import { machineApiTypes } from '../../api/resource-types'
import { selectorMatches } from '../../api/shared/label-selector'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import type { ObjectKey } from '../../kube/object-key'
import { listPages } from '../../kube/paged-list'
import type { HeldObject } from '../../kube/read-once'
import type { KubeObject } from '../../kube/resource'
import { isControlledBy, isDeleting, type MachineSetObject } from '../machine-set/types'
import type { Controller, ReconcileDeps, ReconcileResult } from '../runtime/controller'
import { isStalled } from '../runtime/stalled'
import { writeStatus } from '../runtime/status-write'
import { syncClassCapacity } from '../shared/class-capacity-sync'
import { recordEvent } from '../shared/events'
import { handedClass, templateClassName, templateRelatedClass } from '../shared/node-group-class'
import { statusUnchanged } from '../shared/status-unchanged'
import { executeDeploymentActions } from './execute'
import { heldEvents } from './held-events'
import type { MachineDeploymentObject } from './machine-sets'
import { planMachineDeployment } from './plan'
import { classCopyIsStale } from './rollout-target'
import { computeDeploymentStatus } from './status'

/** Every MachineSet of `namespace`, page by page. */
async function listNamespaceSets(deps: ReconcileDeps, namespace: string) {
  const sets: MachineSetObject[] = []
  for await (const page of listPages(deps.kube, machineApiTypes.machineSet, { namespace })) {
    sets.push(...(page.items as unknown as MachineSetObject[]))
  }
  return sets
}

/** Of `sets`, those `md` controls (by its selector, then by controller reference). */
function deploymentSets(md: MachineDeploymentObject, sets: readonly MachineSetObject[]) {
  return sets.filter(
    (s) =>
      selectorMatches(md.spec.selector, s.metadata.labels) && isControlledBy(s, md.metadata.uid),
  )
}

/** The MachineSets `md` controls. */
export async function listDeploymentSets(
  deps: ReconcileDeps,
  md: MachineDeploymentObject,
): Promise<MachineSetObject[]> {
  return deploymentSets(md, await listNamespaceSets(deps, md.metadata.namespace ?? ''))
}

/**
 * Reconciles one MachineDeployment. A rollback pass only rewrites the template and asks to run
 * again at once; otherwise status is written after the actions and the first failure rethrown.
 */
export async function reconcileMachineDeployment(
  deps: ReconcileDeps,
  key: ObjectKey,
  related?: readonly HeldObject[],
): Promise<ReconcileResult> {
  const type = machineApiTypes.machineDeployment
  const ref = { namespace: key.namespace, name: key.name }
  // The sets are listed before the deployment is read, as the MachineSet controller lists its
  // Machines first: a deployment read before a rollout finished and sets listed after it would
  // plan the old template against the new sets and roll back (machine-set/reconcile.ts).
  const all = await listNamespaceSets(deps, key.namespace ?? '')
  const md = await deps.kube.get<MachineDeploymentObject & { [k: string]: unknown }>(type, ref)
  if (!md || isStalled(md)) return {}
  const sets = deploymentSets(md, all)
  const mdObject = md as KubeObject & typeof md
  const now = deps.clock.now()
  // The class as handed (its change, the sweep) unless older than a set's; read only when a new
  // set is to be made from it.
  const handed = handedClass(mdObject, related)
  let machineClass = handed && !classCopyIsStale(sets, handed) ? handed : undefined
  let plan = planMachineDeployment({ deployment: md, sets, machineClass, now })
  if (plan.classNeeded) {
    const className = templateClassName(mdObject) ?? ''
    const ref = { namespace: key.namespace, name: className }
    machineClass = await deps.kube.get<MachineClass & KubeObject>(machineApiTypes.machineClass, ref)
    plan = planMachineDeployment({ deployment: md, sets, machineClass: machineClass ?? null, now })
  }
  const errors = await executeDeploymentActions(deps, md, plan.actions)
  if (plan.actions.some((a) => a.type === 'rollback')) {
    if (errors[0]) throw errors[0]
    return { requeueAfterMs: 0 }
  }
  const { status, requeueAfterMs: deadline } = computeDeploymentStatus(md, sets, plan, now)
  for (const note of heldEvents(md, status)) await recordEvent(deps, md as KubeObject, note)
  // A budget window opening or closing changes what may be replaced: look again then.
  const windowMs = plan.disruption?.changesAt && plan.disruption.changesAt.getTime() - now.getTime()
  // And spec.rolloutAfter still to come.
  const timers = [deadline, windowMs, plan.requeueAfterMs].filter(
    (t): t is number => t !== undefined,
  )
  const requeueAfterMs = timers.length > 0 ? Math.max(0, Math.min(...timers)) : undefined
  if (!statusUnchanged(md.status, status)) {
    await writeStatus(deps.kube, type, { observed: md, status })
  }
  // After the status write, whose resourceVersion precondition this patch would otherwise break.
  if (!isDeleting(md)) await syncClassCapacity(deps.kube, type, mdObject, handed ?? machineClass)
  if (errors[0]) throw errors[0]
  return requeueAfterMs === undefined ? {} : { requeueAfterMs }
}

/** The MachineDeployment controller for the runtime (`--controllers machinedeployment`). */
export function machineDeploymentController(): Controller {
  return {
    kind: 'MachineDeployment',
    resource: machineApiTypes.machineDeployment,
    related: [templateRelatedClass],
    reconcile: (deps, key, _observed, related) => reconcileMachineDeployment(deps, key, related),
  }
}
