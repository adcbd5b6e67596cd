/**
 * @module The one place that computes a Machine's status from what a reconcile observed (and the
 * outcomes folded into it): phase, nodeRef, addresses, versions, failure fields and every
 * condition this controller owns, Drained, VolumesDetached, InstanceHealthy, StatusChecksPassed and
 * UpToDate included. Pure.
 *
 * Ready precedence: Deleting, then a permanent failure, then infrastructure, then the Node link,
 * then the Node's health: the first problem is the one a human must act on.
 */
import type { V1Node } from '@kubernetes/client-node'
import type { MachineStatus } from '../../api/v1beta1/machine'
import type { KubeObject } from '../../kube/resource'
import { type ConditionInput, setConditions } from '../shared/conditions'
import type { MachinePlan } from './actions'
import { currentInstanceNotice, instanceNoticeCondition } from './instance-notice'
import type { DrainSkipReason, MachineObservation } from './observation'
import { providerStatusWithAccess } from './recorded-access'
import { statusChecksCondition } from './status-checks'
import { builtFromOf, upToDateCondition } from './up-to-date'

type Phase = NonNullable<MachineStatus['phase']>

/** A merge patch for the status subresource: fields to set, `null` for fields to clear. */
export type MachineStatusPatch = { [K in keyof MachineStatus]?: MachineStatus[K] | null }

/** The facts status is computed from: what was observed and what the final plan concluded. */
type Facts = { obs: MachineObservation; plan: MachinePlan }

/** The linked Node, when one is linked (found and named by nodeRef, or linked this pass). */
function linkedNode(obs: MachineObservation): V1Node | undefined {
  return obs.node.state === 'found' && obs.node.linked ? obs.node.node : undefined
}

function instanceResult(obs: MachineObservation) {
  return obs.instance.state === 'present' ? obs.instance.result : undefined
}

/** The Machine's phase. */
export function machinePhase({ obs, plan }: Facts): Phase {
  const machine = obs.machine
  if ((machine as KubeObject).metadata?.deletionTimestamp) return 'Deleting'
  if (plan.failure) return 'Failed'
  if (linkedNode(obs) || (obs.node.state === 'gone' && machine.status?.nodeRef)) return 'Running'
  if (machine.spec.providerID || obs.instance.state === 'present') return 'Provisioned'
  if (plan.infrastructureProblem) return 'Provisioning'
  return 'Pending'
}

function infrastructureCondition({ obs, plan }: Facts): ConditionInput {
  const type = 'InfrastructureReady'
  const problem = obs.providerProblem ?? plan.failure ?? plan.infrastructureProblem
  if (problem) return { type, status: 'False', ...problem }
  const result = instanceResult(obs)
  if (result || obs.machine.spec.providerID) {
    const id = result?.providerID ?? obs.machine.spec.providerID
    return { type, status: 'True', reason: 'InstanceReady', message: `Instance ${id}` }
  }
  return {
    type,
    status: 'False',
    reason: 'WaitingForInstance',
    message: 'The instance is not created yet',
  }
}

function nodeLinkedCondition(obs: MachineObservation): ConditionInput {
  const type = 'NodeLinked'
  const node = linkedNode(obs)
  if (node) {
    return {
      type,
      status: 'True',
      reason: 'NodeLinked',
      message: `Node ${node.metadata?.name}`,
    }
  }
  if (obs.nodeRefMismatch) {
    return {
      type,
      status: 'False',
      reason: 'NodeRefMismatch',
      message: `status.nodeRef is not this Machine's Node, left alone: ${obs.nodeRefMismatch}`,
    }
  }
  if (obs.node.state === 'gone') {
    const name = obs.node.name
    return {
      type,
      status: 'False',
      reason: 'NodeNotFound',
      message: `Node ${name} no longer exists`,
    }
  }
  return {
    type,
    status: 'False',
    reason: 'WaitingForNode',
    message: 'No Node has joined with this providerID yet',
  }
}

const pressures = ['MemoryPressure', 'DiskPressure', 'PIDPressure']

/** NodeHealthy from the Node's own conditions. */
export function nodeHealthyCondition(node: V1Node | undefined, nodeGone: boolean): ConditionInput {
  const type = 'NodeHealthy'
  if (nodeGone)
    return { type, status: 'False', reason: 'NodeNotFound', message: 'The Node was deleted' }
  if (!node)
    return { type, status: 'Unknown', reason: 'WaitingForNode', message: 'No Node linked yet' }
  const conditions = node.status?.conditions ?? []
  const ready = conditions.find((c) => c.type === 'Ready')
  if (!ready || ready.status === 'Unknown') {
    return {
      type,
      status: 'False',
      reason: 'NodeUnreachable',
      message: ready?.message ?? 'The kubelet stopped reporting',
    }
  }
  if (ready.status !== 'True') {
    return {
      type,
      status: 'False',
      reason: 'NodeNotReady',
      message: ready.message ?? 'Node is not Ready',
    }
  }
  const pressure = conditions
    .filter((c) => pressures.includes(c.type) && c.status === 'True')
    .map((c) => c.type)
  if (pressure.length > 0) {
    return {
      type,
      status: 'False',
      reason: 'NodePressure',
      message: `Node reports ${pressure.join(', ')}`,
    }
  }
  return { type, status: 'True', reason: 'NodeReady', message: '' }
}

/**
 * Drained, when the drain ran or ended in this reconcile (else the stored condition stands):
 * True once it completed or was skipped (the reason says which), False while evictions go on.
 */
export function drainedCondition(obs: MachineObservation): ConditionInput | undefined {
  const type = 'Drained'
  const ended = obs.deletion?.drainEnded
  if (ended && 'completed' in ended) {
    return {
      type,
      status: 'True',
      reason: 'DrainSucceeded',
      message: `Node ${ended.completed} drained`,
    }
  }
  if (ended)
    return { type, status: 'True', reason: ended.skipped, message: skipDrainMessage[ended.skipped] }
  const progress = obs.deletion?.drainProgress
  if (progress !== undefined)
    return { type, status: 'False', reason: 'Draining', message: progress }
  return undefined
}

/** Why a drain was skipped, for the Drained condition and the timeout's Event. */
export const skipDrainMessage: Record<DrainSkipReason, string> = {
  NodeDrainTimeout: 'Drain did not finish within nodeDrainTimeout; deletion continues without it',
  DrainExcluded: 'Drain skipped: the Machine is annotated to exclude draining',
  NodeNotFound: 'Drain skipped: the Machine has no Node',
  InterruptionDeadline:
    "Drain stopped at the EC2 notice's deadline (the instance goes then); deletion continues without it",
}

/**
 * InstanceHealthy, once EC2 sent a notice about the Machine's instance (instance-notice.ts): False
 * naming it while it applies, True again once the Machine has another instance or the notice has
 * expired (the instance outlived it). Not part of Ready:
 * a rebalance recommendation or a maintenance weeks away leaves a Machine serving.
 */
function instanceHealthyCondition(obs: MachineObservation, now: Date): ConditionInput | undefined {
  const notice = currentInstanceNotice(obs.machine, now)
  if (notice) return instanceNoticeCondition(notice)
  const had = obs.machine.status?.conditions?.some((c) => c.type === 'InstanceHealthy')
  return had
    ? { type: 'InstanceHealthy', status: 'True', reason: 'NoNotice', message: '' }
    : undefined
}

/**
 * InstanceObserved, once a read of the recorded instance failed: False naming the failure while
 * it lasts (the last known state is kept meanwhile), True again at the next good read. Not part of
 * Ready: a throttled or timed-out read says nothing about the instance itself.
 */
function instanceObservedCondition(
  obs: MachineObservation,
  plan: MachinePlan,
): ConditionInput | undefined {
  const type = 'InstanceObserved'
  if (plan.readProblem) {
    const { reason, message } = plan.readProblem
    return { type, status: 'False', reason, message: `${message}; the last known state is kept` }
  }
  const had = obs.machine.status?.conditions?.some((c) => c.type === type)
  return had && obs.instance.state === 'present'
    ? { type, status: 'True', reason: 'InstanceRead', message: '' }
    : undefined
}

/** VolumesDetached, when the volume wait was skipped in this reconcile (its reason). */
function volumesDetachedCondition(obs: MachineObservation): ConditionInput | undefined {
  const skipped = obs.deletion?.volumeWaitSkipped
  return skipped
    ? { type: 'VolumesDetached', status: 'True', reason: skipped, message: '' }
    : undefined
}

function readyCondition(plan: MachinePlan, parts: ConditionInput[]): ConditionInput {
  const type = 'Ready'
  if (plan.deleting)
    return { type, status: 'False', reason: 'Deleting', message: plan.deleting.message }
  const failing = parts.find((c) => c.status !== 'True')
  if (failing) return { type, status: 'False', reason: failing.reason, message: failing.message }
  return { type, status: 'True', reason: 'Ready', message: '' }
}

/**
 * The status to write after a reconcile: from the final observation and the plan that ended it
 * (a merge patch: unset fields are cleared with null).
 */
export function computeMachineStatus(
  obs: MachineObservation,
  plan: MachinePlan,
  now: Date,
): MachineStatusPatch {
  const { machine } = obs
  const previous = machine.status ?? {}
  const node = linkedNode(obs)
  const parts = [
    infrastructureCondition({ obs, plan }),
    nodeLinkedCondition(obs),
    nodeHealthyCondition(node, obs.node.state === 'gone'),
  ]
  const owned: ConditionInput[] = [...parts]
  if (plan.deleting) owned.push({ type: 'Deleting', status: 'True', ...plan.deleting })
  owned.push(readyCondition(plan, parts))
  const builtFrom = builtFromOf(obs)
  const more = [
    drainedCondition(obs),
    volumesDetachedCondition(obs),
    instanceHealthyCondition(obs, now),
    instanceObservedCondition(obs, plan),
    statusChecksCondition(obs.machine),
    upToDateCondition(obs, builtFrom),
  ]
  for (const stage of more) {
    if (stage) owned.push(stage)
  }
  const conditions = setConditions(previous.conditions, owned, {
    time: now.toISOString(),
    generation: machine.metadata.generation,
  })
  const phase = machinePhase({ obs, plan })
  const kubelet = node?.status?.nodeInfo?.kubeletVersion
  const infra = instanceResult(obs)
  const drain = obs.deletion?.drainRecord
  const deletion = {
    ...previous.deletion,
    ...obs.deletion?.startedTimers,
    ...(drain ? { drain } : {}),
  }
  return {
    phase,
    lastUpdated:
      phase === previous.phase && previous.lastUpdated ? previous.lastUpdated : now.toISOString(),
    ...(node
      ? {
          nodeRef: {
            name: node.metadata?.name ?? '',
            ...(node.metadata?.uid ? { uid: node.metadata.uid } : {}),
          },
        }
      : {}),
    ...(infra
      ? {
          addresses: infra.addresses,
          providerStatus: providerStatusWithAccess(infra, obs.providerName),
        }
      : {}),
    ...(kubelet ? { versions: { ...previous.versions, kubelet } } : {}),
    failureReason: plan.failure?.reason ?? null,
    failureMessage: plan.failure?.message ?? null,
    failureClassGeneration: (plan.failure && plan.failureClassGeneration) ?? null,
    conditions,
    observedGeneration: machine.metadata.generation ?? null,
    ...(Object.keys(deletion).length > 0 ? { deletion } : {}),
    ...(builtFrom ? { builtFrom } : {}),
  }
}
