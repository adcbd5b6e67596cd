/**
 * @module The one place that computes a Machine's status from what a reconcile observed: phase,
 * nodeRef, addresses, versions, failure fields and every condition this controller owns. Pure.
 *
 * Ready precedence: Deleting, then a permanent failure, then infrastructure, then the Node link,
 * then the Node's health: the first problem is the one a human must act on.
 */
import type { V1Node } from '@kubernetes/client-node'
import type { MachineStatus } from '../../api/v1beta1/machine'
import { type ConditionInput, setConditions } from '../shared/conditions'
import { type MachineScope, meta } from './machine-scope'

type Phase = NonNullable<MachineStatus['phase']>

/** A merge patch for the status subresource: fields to set, `null` for fields to clear. */
export type MachineStatusPatch = { [K in keyof MachineStatus]?: MachineStatus[K] | null }

export function machinePhase(scope: MachineScope): Phase {
  if (meta(scope.machine).deletionTimestamp) return 'Deleting'
  if (scope.failure) return 'Failed'
  if (scope.node || (scope.nodeGone && scope.machine.status?.nodeRef)) return 'Running'
  if (scope.machine.spec.providerID || scope.infrastructure) return 'Provisioned'
  if (scope.infrastructureProblem) return 'Provisioning'
  return 'Pending'
}

function infrastructureCondition(scope: MachineScope): ConditionInput {
  const type = 'InfrastructureReady'
  const problem = scope.providerProblem ?? scope.failure ?? scope.infrastructureProblem
  if (problem) return { type, status: 'False', ...problem }
  if (scope.infrastructure || scope.machine.spec.providerID) {
    const id = scope.infrastructure?.providerID ?? scope.machine.spec.providerID
    return { type, status: 'True', reason: 'InstanceReady', message: `Instance ${id}` }
  }
  return {
    type,
    status: 'False',
    reason: 'WaitingForInstance',
    message: 'The instance is not created yet',
  }
}

function nodeLinkedCondition(scope: MachineScope): ConditionInput {
  const type = 'NodeLinked'
  if (scope.node) {
    return {
      type,
      status: 'True',
      reason: 'NodeLinked',
      message: `Node ${scope.node.metadata?.name}`,
    }
  }
  if (scope.nodeGone) {
    const name = scope.machine.status?.nodeRef?.name
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

function readyCondition(scope: MachineScope, parts: ConditionInput[]): ConditionInput {
  const type = 'Ready'
  if (scope.deleting)
    return { type, status: 'False', reason: 'Deleting', message: scope.deleting.message }
  const failing = parts.find((c) => c.status !== 'True')
  if (failing) return { type, status: 'False', reason: failing.reason, message: failing.message }
  return { type, status: 'True', reason: 'Ready', message: '' }
}

/** The status to write for `scope` (a merge patch: unset fields are cleared with null). */
export function computeMachineStatus(scope: MachineScope): MachineStatusPatch {
  const { machine, now } = scope
  const previous = machine.status ?? {}
  const parts = [
    infrastructureCondition(scope),
    nodeLinkedCondition(scope),
    nodeHealthyCondition(scope.node, scope.nodeGone ?? false),
  ]
  const owned: ConditionInput[] = [...parts]
  if (scope.deleting) owned.push({ type: 'Deleting', status: 'True', ...scope.deleting })
  owned.push(readyCondition(scope, parts), ...scope.extraConditions)
  const conditions = setConditions(previous.conditions ?? [], owned, {
    now,
    generation: machine.metadata.generation,
  })
  const phase = machinePhase(scope)
  const node = scope.node
  const kubelet = node?.status?.nodeInfo?.kubeletVersion
  const infra = scope.infrastructure
  const deletion = { ...previous.deletion, ...scope.deletionTimers }
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
    ...(infra ? { addresses: infra.addresses, providerStatus: infra.providerStatus } : {}),
    ...(kubelet ? { versions: { ...previous.versions, kubelet } } : {}),
    failureReason: scope.failure?.reason ?? null,
    failureMessage: scope.failure?.message ?? null,
    conditions,
    observedGeneration: machine.metadata.generation ?? null,
    ...(Object.keys(deletion).length > 0 ? { deletion } : {}),
  }
}
