/**
 * @module The Machine planner: given what a reconcile observed, the one action to take next, or
 * none and why (a failure, a wait, a timer). Pure: no I/O, `now` is passed in. The reconcile runs
 * the action, folds its outcome into the observation and asks again, until nothing is left to do.
 *
 * Order: finalizer (with the create claim when a create comes next) -> instance (claim, create,
 * or adopt what exists) -> record the providerID ->
 * find, link and sync the Node. A deleting Machine follows the deletion sequence (deletion.ts).
 */
import { ANNOTATIONS, LABELS } from '../../api/group'
import { providerIdHash } from '../../api/node-link'
import type { KubeObject } from '../../kube/resource'
import { findCondition } from '../shared/conditions'
import { deletesOnInterruption, interruptionOf } from '../shared/interruption'
import {
  hasFinalizer,
  hasLegacyFinalizer,
  type MachinePlan,
  type MachinePlanSettings,
  timer,
  warning,
} from './actions'
import { createClaimAnnotation } from './claim-holder'
import { planDeletionPass } from './deletion'
import { configurationRetryMs, legacyMachineFinalizer, machineFinalizer } from './machine-deps'
import { nodeWishes, planNodeSync } from './node-sync'
import type { MachineObservation } from './observation'
import { providerFailurePlan } from './provider-failure'
import { provisioningTimedOut } from './provisioning-deadline'
import { failureStands } from './standing-failure'

/**
 * Plans the next step for `obs` at `now`; a status.nodeRef naming another Machine's Node is also
 * a Warning Event (the Node itself is left alone: observe.ts does not hand it on).
 */
export function planMachine(
  obs: MachineObservation,
  now: Date,
  settings: MachinePlanSettings,
): MachinePlan {
  const plan = withWake(planStep(obs, now, settings), standaloneWakeMs(obs, now))
  if (!obs.nodeRefMismatch) return plan
  const mismatch = warning({ reason: 'NodeRefMismatch', message: obs.nodeRefMismatch })
  return { ...plan, events: [...plan.events, mismatch] }
}

function planStep(obs: MachineObservation, now: Date, settings: MachinePlanSettings): MachinePlan {
  const machine = obs.machine as KubeObject
  if (machine.metadata?.deletionTimestamp) return planDeletionPass(obs, now, settings)
  if (!hasFinalizer(machine) || hasLegacyFinalizer(machine)) {
    // What comes once the finalizer is on: a create claim rides along in the same patch.
    const next = planMachine(withOurFinalizer(obs), now, settings).action
    const claimCreate = next?.type === 'claim-create' ? { claimCreate: true as const } : {}
    return { action: { type: 'add-finalizer', ...claimCreate }, events: [] }
  }
  const leave = standaloneDeletion(obs, now)
  if (leave) return leave
  const problem = obs.providerProblem
  if (problem) {
    // A configuration problem the user must fix: one Event per change, a slow re-check.
    const previous = findCondition(obs.machine.status?.conditions, 'InfrastructureReady')
    const events = previous?.reason === problem.reason ? [] : [warning(problem)]
    return { events, requeueAfterMs: configurationRetryMs }
  }
  const status = obs.machine.status
  if (status?.failureReason && failureStands(obs.machine, obs.classGeneration)) {
    return {
      failure: { reason: status.failureReason, message: status.failureMessage ?? '' },
      ...(status.failureClassGeneration !== undefined
        ? { failureClassGeneration: status.failureClassGeneration }
        : {}),
      events: [],
    }
  }
  const instance = obs.instance
  // Past the provisioning deadline: terminate the instance (folded: absent or terminating), then
  // fail, so no instance runs on while the set's replacement backoff holds. Unknown whether an
  // instance exists (the provider call failed): the usual retry first.
  const timedOut = instance.state === 'failed' ? undefined : provisioningTimedOut(obs, now)
  if (timedOut) {
    if (instance.state === 'present') return { action: { type: 'terminate-instance' }, events: [] }
    return { failure: timedOut, events: [warning(timedOut)] }
  }
  switch (instance.state) {
    case 'failed': {
      // Drop this reconcile's create claim first, so the retry need not wait for it.
      if (obs.claim?.mine) return { action: { type: 'release-claim' }, events: [] }
      const recorded = obs.machine.spec.providerID !== undefined
      const plan = providerFailurePlan(instance.failure, recorded ? 'observing' : 'provisioning')
      // Failed on the class's spec: remembered, so a change of the class tries again.
      const onClass = plan.failure && obs.classGeneration !== undefined
      return onClass ? { ...plan, failureClassGeneration: obs.classGeneration } : plan
    }
    case 'absent':
      return planCreate(obs, now, settings)
    case 'present':
      return planAfterInstance(obs, settings)
    default:
      return { events: [] }
  }
}

/**
 * No instance yet. A Machine whose recorded instance vanished is Failed, never silently
 * re-created (its Node identity died with it): its MachineSet or health check replaces it.
 */
function planCreate(
  obs: MachineObservation,
  now: Date,
  settings: MachinePlanSettings,
): MachinePlan {
  const providerID = obs.machine.spec.providerID
  if (providerID) {
    const failure = {
      reason: 'InstanceGone',
      message: `the instance behind ${providerID} no longer exists; delete the Machine to replace it`,
    }
    return { failure, events: [warning(failure)] }
  }
  const claim = obs.claim
  if (claim?.mine) return { action: { type: 'create-instance' }, events: [] }
  if (claim && !claim.holderDead) {
    const ageMs = now.getTime() - claim.at.getTime()
    if (Number.isFinite(ageMs) && ageMs >= 0 && ageMs < settings.claimTtlMs) {
      return {
        infrastructureProblem: {
          reason: 'CreateInProgress',
          message: 'Another reconcile is creating the instance',
        },
        events: [],
        requeueAfterMs: Math.min(5_000, settings.claimTtlMs - ageMs),
      }
    }
  }
  return { action: { type: 'claim-create' }, events: [] }
}

/** The instance exists: record its providerID, then find, link and sync the Node. */
function planAfterInstance(obs: MachineObservation, settings: MachinePlanSettings): MachinePlan {
  const { machine } = obs
  const result = obs.instance.state === 'present' ? obs.instance.result : undefined
  const recorded = machine.spec.providerID
  const providerID = recorded ?? result?.providerID
  const claimed = createClaimAnnotation in (machine.metadata.annotations ?? {})
  const labelled =
    machine.metadata.labels?.[LABELS.providerIdHash] === providerIdHash(providerID ?? '')
  if (providerID && (!recorded || !labelled || claimed)) {
    return { action: { type: 'record-provider-id', providerID }, events: [] }
  }
  const pollMs = result?.requeueAfterMs
  const node = obs.node
  switch (node.state) {
    case 'not-looked-up':
      return { action: { type: 'find-node', providerID }, events: [] }
    case 'missing':
      return { events: [], requeueAfterMs: earliest(pollMs, settings.nodeLookupRetryMs) }
    case 'gone': {
      const wasGone =
        findCondition(machine.status?.conditions, 'NodeHealthy')?.reason === 'NodeNotFound'
      const event = { reason: 'NodeNotFound', message: `Node ${node.name} no longer exists` }
      return { events: wasGone ? [] : [warning(event)], ...timer(pollMs) }
    }
    case 'found': {
      const nodeName = node.node.metadata?.name ?? ''
      if (!node.linked) return { action: { type: 'link-node', nodeName }, events: [] }
      const patch = planNodeSync(nodeWishes(machine), node.node)
      if (patch) return { action: { type: 'sync-node', nodeName, patch }, events: [] }
      return { events: [], ...timer(pollMs) }
    }
  }
}

/**
 * The interruption of a standalone Machine (no controller: a set replaces its own) annotated
 * machine-api.dev/delete-on-interruption; without the annotation a notice is only recorded
 * (InstanceHealthy).
 */
function standaloneInterruption(obs: MachineObservation, now: Date) {
  if (!deletesOnInterruption(obs.machine)) return undefined
  const owners = (obs.machine as KubeObject).metadata?.ownerReferences ?? []
  if (owners.some((o) => o.controller)) return undefined
  return interruptionOf(obs.machine, 'Record', now)
}

/** Such a Machine deletes itself once its interruption is urgent, so its drain runs in time. */
function standaloneDeletion(obs: MachineObservation, now: Date): MachinePlan | undefined {
  const interruption = standaloneInterruption(obs, now)
  if (!interruption?.urgent) return undefined
  const { notice } = interruption
  const due = notice.deadline ? ` (due ${notice.deadline})` : ''
  const reason = `Deleting the Machine on ${notice.reason}${due}: it is annotated ${ANNOTATIONS.deleteOnInterruption}`
  return { action: { type: 'delete-machine', reason }, events: [] }
}

/** Before that, a timer for when it becomes urgent. */
function standaloneWakeMs(obs: MachineObservation, now: Date): number | undefined {
  const interruption = standaloneInterruption(obs, now)
  const at = interruption?.urgent ? undefined : interruption?.urgentAtMs
  return at === undefined ? undefined : Math.max(0, at - now.getTime())
}

function withWake(plan: MachinePlan, wakeMs: number | undefined): MachinePlan {
  if (wakeMs === undefined || plan.action) return plan
  return { ...plan, requeueAfterMs: earliest(plan.requeueAfterMs, wakeMs) }
}

/** `obs` as it will be once the finalizer is added (the earlier versions' one replaced). */
function withOurFinalizer(obs: MachineObservation): MachineObservation {
  const metadata = obs.machine.metadata as KubeObject['metadata'] & object
  const others = (metadata.finalizers ?? []).filter((f) => f !== legacyMachineFinalizer)
  const machine = {
    ...obs.machine,
    metadata: { ...metadata, finalizers: [...others, machineFinalizer] },
  }
  return { ...obs, machine: machine as MachineObservation['machine'] }
}

function earliest(a: number | undefined, b: number): number {
  return a === undefined ? b : Math.min(a, b)
}
