/**
 * @module The MachineSet controller: read the set and the Machines of its namespace, plan, act,
 * write status last (conditional on the resourceVersion read), and return the earliest timer.
 */
import { machineApiTypes } from '../../api/resource-types'
import type { KubeClient } from '../../kube/kube-client'
import type { ObjectKey } from '../../kube/object-key'
import { listPages } from '../../kube/paged-list'
import { type HeldObject, readOnce } from '../../kube/read-once'
import type { KubeObject } from '../../kube/resource'
import { readExpiryAllowance } from '../disruption/allowance'
import type { Controller, ReconcileDeps, ReconcileResult } from '../runtime/controller'
import { isStalled } from '../runtime/stalled'
import { writeStatus } from '../runtime/status-write'
import { syncClassCapacity } from '../shared/class-capacity-sync'
import { recordEvent } from '../shared/events'
import { handedClass, templateRelatedClass } from '../shared/node-group-class'
import { statusUnchanged } from '../shared/status-unchanged'
import { executeMachineSetActions, recordMachineSetEvents } from './execute'
import { expiryEvents } from './expiry-events'
import { recordInterruptedOfferings } from './interruption-record'
import { claimMachineNames, markClaimDone, withoutCreatesSeenSince } from './name-claim-writes'
import { nameClaimCreateMs, withClaimDone } from './name-claims'
import { type MachineSetPlanOptions, planMachineSet } from './plan'
import { computeMachineSetStatus, replacementsHeldCondition } from './status'
import { readTemplateClass } from './template-class'
import {
  controllerOf,
  isControlledBy,
  isDeleting,
  type MachineObject,
  type MachineSetObject,
} from './types'

/** Every Machine of `namespace`, page by page. */
export async function listMachines(kube: KubeClient, namespace: string): Promise<MachineObject[]> {
  const machines: MachineObject[] = []
  for await (const page of listPages(kube, machineApiTypes.machine, { namespace })) {
    machines.push(...(page.items as MachineObject[]))
  }
  return machines
}

/**
 * Reconciles one MachineSet. Safe to run concurrently for the same key: new names are claimed
 * and status written conditional on resourceVersion, and so is adoption; deletes on uid. Rethrows
 * the first failed action after status is written, so the runner retries with backoff.
 */
export async function reconcileMachineSet(
  deps: ReconcileDeps,
  key: ObjectKey,
  options: MachineSetPlanOptions = {},
  related?: readonly HeldObject[],
): Promise<ReconcileResult> {
  const type = machineApiTypes.machineSet
  const ref = { namespace: key.namespace, name: key.name }
  // The Machines are listed before the set is read, never after: a set read first and a list
  // taken once a scale-down's Machines were gone (another replica's pass, seconds later on a
  // loaded worker) planned the old replicas over the emptied slots and created them again. A
  // list older than the set only misses Machines whose names the set has counted already.
  // Listing the namespace (not just the selector) finds Machines to release and free names.
  const machines = await listMachines(deps.kube, key.namespace ?? '')
  const read = await deps.kube.get<MachineSetObject & { [k: string]: unknown }>(type, ref)
  if (!read || isStalled(read)) return {}
  // The class, when this run was woken by its change or swept (see class-capacity-sync.ts); else
  // the set's record of it, and a GET only where that is not enough (template-class.ts).
  const classes = readOnce(deps.kube)
  const passStart = deps.clock.now()
  // The offerings of interrupted Machines go to the class first, so their replacements (planned
  // with the class as written) and later launches try other offerings.
  const owned = isDeleting(read) ? [] : machines.filter((m) => isControlledBy(m, read.metadata.uid))
  const handed = await recordInterruptedOfferings(deps, read, {
    owned,
    now: passStart,
    classes,
    handed: handedClass(read as KubeObject, related),
  })
  // A deployment's sets are not node groups of their own: the autoscaler scales the deployment.
  const nodeGroup = !isDeleting(read) && controllerOf(read)?.kind !== 'MachineDeployment'
  const observed = { machines, now: passStart, handed, nodeGroup }
  const template = await readTemplateClass(classes, read, observed)
  const plan = planMachineSet({ set: read, machines, now: passStart, ...template.facts }, options)
  const set = await claimMachineNames(deps.kube, read, plan.names)
  const relist = () => listMachines(deps.kube, key.namespace ?? '')
  const actions = await withoutCreatesSeenSince(relist, set, machines, plan.actions, passStart)
  const createsUntil = passStart.getTime() + nameClaimCreateMs
  const report = await executeMachineSetActions(deps, set, actions, createsUntil)
  await recordMachineSetEvents(deps, set, report)

  const now = deps.clock.now()
  const expiry = { plan: plan.expiry, allowance: readExpiryAllowance(set.metadata.annotations) }
  const { status, requeueAfterMs } = computeMachineSetStatus(
    set,
    { owned: plan.owned, replacement: plan.replacement, expiry, templateClass: template.record },
    now,
  )
  for (const note of expiryEvents(set, plan.expiry, replacementsHeldCondition(expiry))) {
    await recordEvent(deps, set as KubeObject, note)
  }
  // The claim is marked done with the status when that write wins, else on its own.
  const claim = plan.names?.claim
  const nameClaims = claim && withClaimDone(set.status?.nameClaims, claim)
  const written = nameClaims ? { ...status, nameClaims } : status
  if (!statusUnchanged(set.status, written)) {
    try {
      await writeStatus(deps.kube, type, { observed: set, status: written })
    } catch (error) {
      if (claim) await markClaimDone(deps.kube, set, claim)
      throw error
    }
  }
  if (nodeGroup) {
    const group = set as KubeObject & typeof set
    await syncClassCapacity(classes, type, group, template.machineClass, template.looked)
  }
  const failure = report.errors[0]
  if (failure) throw failure.error
  const timers = [plan.requeueAfterMs, requeueAfterMs].filter((t): t is number => t !== undefined)
  return timers.length > 0 ? { requeueAfterMs: Math.max(0, Math.min(...timers)) } : {}
}

/** The MachineSet controller for the runtime (`--controllers machineset`). */
export function machineSetController(options: MachineSetPlanOptions = {}): Controller {
  return {
    kind: 'MachineSet',
    resource: machineApiTypes.machineSet,
    related: [templateRelatedClass],
    reconcile: (deps, key, _observed, related) => reconcileMachineSet(deps, key, options, related),
  }
}
