/**
 * @module What each action's raw outcome (as the executor reports it) changes in the observation,
 * and the Events that tell it. Pure: the reconcile folds every outcome in before it plans again,
 * and status.ts derives the conditions from the result.
 */
import type { V1Node } from '@kubernetes/client-node'
import type { Machine } from '../../api/v1beta1/machine'
import { blockingBudgets, mergeDrainRecord } from '../../drain/drain-record'
import { drainCompleted, drainMessage, type EvictionResult } from '../../drain/eviction-result'
import type { DeleteResult, ProviderResult } from '../../providers/actuator'
import { type MachineAction, type PlannedEvent, warning } from './actions'
import { createClaimAnnotation, parseClaim } from './claim-holder'
import {
  type DeletionFacts,
  type MachineObservation,
  type NodeObservation,
  noDeletionFacts,
} from './observation'
import type { ProviderCallResult } from './provider-context'
import { skipDrainMessage } from './status'

/** The raw outcome of each action. */
export interface ActionOutcomes {
  'add-finalizer': { machine: Machine }
  'claim-create': { machine: Machine }
  'create-instance': ProviderCallResult<ProviderResult>
  'release-claim': { machine: Machine }
  'record-provider-id': { machine: Machine }
  /** The Node found (or not), and while deleting the volumes still attached to it. */
  'find-node': { node: NodeObservation; attachedVolumes?: string[] }
  'link-node': Record<string, never>
  'sync-node': { node: V1Node }
  'drain-node': { result: EvictionResult }
  'skip-drain': Record<string, never>
  'skip-volume-wait': Record<string, never>
  /** The provider's answer and, once the instance is gone, the Node as it is now. */
  'terminate-instance': { call: ProviderCallResult<DeleteResult>; node?: NodeObservation }
  /** `error`: the delete failed past nodeDeletionTimeout, so the Node is left behind. */
  'delete-node': { error?: string }
  'remove-finalizer': { machine: Machine }
  /** `deleted`: this call started the deletion (false: it was already gone). */
  'delete-machine': { deleted: boolean }
}

/** The outcome of `A`. */
export type OutcomeOf<A extends MachineAction> = ActionOutcomes[A['type']]

/** The observation after an action, and the Events telling what it did. */
export interface Folded {
  obs: MachineObservation
  events: PlannedEvent[]
}

type Fold<K extends MachineAction['type']> = (
  obs: MachineObservation,
  action: Extract<MachineAction, { type: K }>,
  outcome: ActionOutcomes[K],
  now: Date,
) => Folded

const mine = (now: Date) => ({ at: now, mine: true, holderDead: false })
const quiet = (obs: MachineObservation): Folded => ({ obs, events: [] })

/** The claim a recorded Machine still carries: a deletion's, when it was deleted meanwhile. */
function keptClaim(machine: Machine): MachineObservation['claim'] {
  const value = machine.metadata.annotations?.[createClaimAnnotation]
  if (!value) return undefined
  const { at, forDeletion } = parseClaim(value)
  return { at, mine: false, holderDead: false, ...(forDeletion ? { forDeletion } : {}) }
}

const folds: { [K in MachineAction['type']]: Fold<K> } = {
  'add-finalizer': (obs, action, { machine }, now) =>
    quiet(action.claimCreate ? { ...obs, machine, claim: mine(now) } : { ...obs, machine }),
  'claim-create': (obs, _, { machine }, now) => quiet({ ...obs, machine, claim: mine(now) }),
  'create-instance': (obs, _, call) => {
    if (!call.ok) return quiet({ ...obs, instance: { state: 'failed', failure: call.failure } })
    const result = call.value
    return {
      obs: { ...obs, instance: { state: 'present', result, created: true } },
      events: [normal('InstanceCreated', `Created instance ${result.providerID}`)],
    }
  },
  'release-claim': (obs, _, { machine }) => quiet({ ...obs, machine, claim: undefined }),
  'record-provider-id': (obs, _, { machine }) =>
    quiet({ ...obs, machine, claim: keptClaim(machine) }),
  'find-node': (obs, _, { node, attachedVolumes }) =>
    quiet(
      obs.deletion && attachedVolumes
        ? { ...obs, node, deletion: { ...obs.deletion, attachedVolumes } }
        : { ...obs, node },
    ),
  'link-node': (obs, action) => {
    if (obs.node.state !== 'found') return quiet(obs)
    return {
      obs: { ...obs, node: { ...obs.node, linked: true } },
      events: [normal('NodeLinked', `Linked to Node ${action.nodeName}`)],
    }
  },
  'sync-node': (obs, _, { node }) =>
    quiet(obs.node.state === 'found' ? { ...obs, node: { ...obs.node, node } } : obs),
  'drain-node': (obs, action, { result }) => {
    const drainRecord = mergeDrainRecord(
      obs.deletion?.drainRecord ?? obs.machine.status?.deletion?.drain,
      result,
    )
    const events = [
      ...result.warnings.map((w) =>
        warning({ reason: 'EvictedWithWarning', message: `Evicted ${w.pod}: ${w.warning}` }),
      ),
      ...blockingBudgets(result).map(({ budget, pod, message }) =>
        warning({
          reason: 'EvictionBlocked',
          message: budget
            ? `PodDisruptionBudget ${pod.split('/')[0]}/${budget} blocks evicting ${pod}: ${message}`
            : `Evicting ${pod} was refused: ${message}`,
        }),
      ),
    ]
    if (!drainCompleted(result)) {
      return {
        obs: withDeletion(obs, { drainProgress: drainMessage(result), drainRecord }),
        events,
      }
    }
    return {
      obs: withDeletion(obs, {
        drained: true,
        drainEnded: { completed: action.nodeName },
        drainRecord,
      }),
      events: [...events, normal('NodeDrained', `Drained Node ${action.nodeName}`)],
    }
  },
  'skip-drain': (obs, { reason }) => ({
    obs: withDeletion(obs, { drained: true, drainEnded: { skipped: reason } }),
    events:
      reason === 'NodeDrainTimeout' || reason === 'InterruptionDeadline'
        ? [warning({ reason, message: skipDrainMessage[reason] })]
        : [],
  }),
  'skip-volume-wait': (obs, { reason }) =>
    quiet(withDeletion(obs, { volumesDetached: true, volumeWaitSkipped: reason })),
  'terminate-instance': (obs, _, { call, node }) => {
    if (!call.ok) return quiet({ ...obs, instance: { state: 'failed', failure: call.failure } })
    if (!call.value.done) {
      const requeueAfterMs = call.value.requeueAfterMs
      return quiet({ ...obs, instance: { state: 'terminating', requeueAfterMs } })
    }
    return quiet({ ...obs, instance: { state: 'absent' }, node: node ?? obs.node })
  },
  'delete-node': (obs, { nodeName }, { error }) => ({
    obs: { ...obs, node: { state: 'missing' } },
    events: [
      error === undefined
        ? normal('NodeDeleted', `Deleted Node ${nodeName}`)
        : warning({
            reason: 'NodeDeletionTimeout',
            message: `Could not delete Node ${nodeName} within nodeDeletionTimeout; leaving it: ${error}`,
          }),
    ],
  }),
  'remove-finalizer': (obs, _, { machine }) => quiet({ ...obs, machine, released: true }),
  // The deletion reruns the Machine through its watch; this pass plans its first step already.
  'delete-machine': (obs, { reason }, { deleted }, now) => ({
    obs: {
      ...obs,
      machine: {
        ...obs.machine,
        metadata: { ...obs.machine.metadata, deletionTimestamp: now.toISOString() },
      } as MachineObservation['machine'],
    },
    events: deleted ? [warning({ reason: 'DeletedOnInterruption', message: reason })] : [],
  }),
}

/** Folds the outcome of `action` into `obs`. */
export function foldOutcome<A extends MachineAction>(
  obs: MachineObservation,
  action: A,
  outcome: OutcomeOf<A>,
  now: Date,
): Folded {
  const fold = folds[action.type] as Fold<A['type']>
  return fold(obs, action as unknown as Extract<MachineAction, { type: A['type'] }>, outcome, now)
}

/** `obs` with its deletion facts updated. */
function withDeletion(obs: MachineObservation, facts: Partial<DeletionFacts>): MachineObservation {
  return { ...obs, deletion: { ...noDeletionFacts, ...obs.deletion, ...facts } }
}

function normal(reason: string, message: string): PlannedEvent {
  return { type: 'Normal', reason, message }
}
