/**
 * @module Carries out one Machine action and returns the observation with its outcome folded in.
 * The switch is exhaustive over MachineAction: a new action without a case fails typecheck.
 * Provider failures become observations (the planner decides what they mean); apiserver errors
 * are thrown for the runner (a Conflict re-reads soon).
 */

import type { V1Node } from '@kubernetes/client-node'
import { LABELS } from '../../api/group'
import { providerIdHash } from '../../api/node-link'
import { machineApiTypes } from '../../api/resource-types'
import type { Machine } from '../../api/v1beta1/machine'
import { drainNodePass } from '../../drain/drain'
import { drainCompleted, drainMessage } from '../../drain/eviction-result'
import { kubeDrainClient } from '../../drain/kube-drain-client'
import { coreTypes, type KubeObject, refOf } from '../../kube/resource'
import { toActuatorMachine } from '../../providers/machine'
import { recordEvent } from '../shared/events'
import type { MachineAction } from './actions'
import { type ClaimHolder, createClaimAnnotation, formatClaim } from './claim-holder'
import type { MachineDeps } from './machine-deps'
import { legacyMachineFinalizer, machineFinalizer } from './machine-deps'
import { findNode, writeNodeSync } from './node-linking'
import type { ConditionFact, MachineObservation } from './observation'
import { deletionFacts } from './observe'
import type { MachineProvider } from './provider-context'

/** What the executor works with besides the observation. */
export interface MachineExecutor {
  deps: MachineDeps
  /** Undefined when no provider is usable (the planner then plans no provider action). */
  provider: MachineProvider | undefined
  holder: ClaimHolder
  now: Date
}

/** Runs `action`; returns `obs` updated with what it did. */
export async function executeMachineAction(
  exec: MachineExecutor,
  obs: MachineObservation,
  action: MachineAction,
): Promise<MachineObservation> {
  const { deps } = exec
  const machine = obs.machine
  // Not awaited: an Event never holds up (or fails) the reconcile.
  const event = (type: 'Normal' | 'Warning', reason: string, message: string) => {
    void recordEvent(deps, machine as KubeObject, { type, reason, message })
  }
  switch (action.type) {
    case 'add-finalizer': {
      const finalizers = [...withoutOurFinalizers(machine), machineFinalizer]
      if (!action.claimCreate) {
        return { ...obs, machine: await patchMachine(deps, machine, { metadata: { finalizers } }) }
      }
      const annotations = claimAnnotation(exec)
      const claimed = await patchMachine(deps, machine, { metadata: { finalizers, annotations } })
      return { ...obs, machine: claimed, claim: { at: exec.now, mine: true, holderDead: false } }
    }
    case 'claim-create': {
      const patch = { metadata: { annotations: claimAnnotation(exec) } }
      const claimed = await patchMachine(deps, machine, patch)
      return { ...obs, machine: claimed, claim: { at: exec.now, mine: true, holderDead: false } }
    }
    case 'create-instance': {
      const view = toActuatorMachine(machine)
      const created = await required(exec.provider).call((a, ctx) => a.create(ctx, view))
      if (!created.ok) return { ...obs, instance: { state: 'failed', failure: created.failure } }
      const result = created.value
      event('Normal', 'InstanceCreated', `Created instance ${result.providerID}`)
      return { ...obs, instance: { state: 'present', result, created: true } }
    }
    case 'release-claim':
      return { ...obs, machine: await releaseClaim(deps, machine), claim: undefined }
    case 'record-provider-id': {
      const recorded = machine.spec.providerID
      const patch = {
        metadata: {
          labels: { [LABELS.providerIdHash]: providerIdHash(recorded ?? action.providerID) },
          annotations: { [createClaimAnnotation]: null },
        },
        ...(recorded ? {} : { spec: { providerID: action.providerID } }),
      }
      return { ...obs, machine: await patchMachine(deps, machine, patch), claim: undefined }
    }
    case 'find-node': {
      const result = obs.instance.state === 'present' ? obs.instance.result : undefined
      const node = await findNode(deps.kube, {
        providerID: action.providerID,
        nodeName: result?.nodeName,
        addresses: result?.addresses ?? [],
      })
      if (!node) return { ...obs, node: { state: 'missing' } }
      const found = { state: 'found', node, linked: false } as const
      return obs.deletion
        ? { ...obs, node: found, deletion: await deletionFacts(deps, machine, found) }
        : { ...obs, node: found }
    }
    case 'link-node': {
      if (obs.node.state !== 'found') return obs
      event('Normal', 'NodeLinked', `Linked to Node ${action.nodeName}`)
      return { ...obs, node: { ...obs.node, linked: true } }
    }
    case 'sync-node': {
      if (obs.node.state !== 'found') return obs
      const resourceVersion = obs.node.node.metadata?.resourceVersion
      const node = await writeNodeSync(deps, action.nodeName, action.patch, resourceVersion)
      return { ...obs, node: { ...obs.node, node } }
    }
    case 'drain-node': {
      const result = await drainNodePass(kubeDrainClient(deps.kube), {
        nodeName: action.nodeName,
        nodeUnreachable: action.nodeUnreachable,
        now: exec.now,
      })
      for (const w of result.warnings) {
        event('Warning', 'EvictedWithWarning', `Evicted ${w.pod}: ${w.warning}`)
      }
      if (drainCompleted(result)) {
        event('Normal', 'NodeDrained', `Drained Node ${action.nodeName}`)
        return withDeletion(
          obs,
          { drained: true },
          drained('DrainSucceeded', `Node ${action.nodeName} drained`),
        )
      }
      const message = drainMessage(result)
      return withDeletion(
        obs,
        { drainProgress: message },
        { type: 'Drained', status: 'False', reason: 'Draining', message },
      )
    }
    case 'skip-drain': {
      const message = skipDrainMessage(action.reason)
      if (action.reason === 'NodeDrainTimeout') event('Warning', 'NodeDrainTimeout', message)
      return withDeletion(obs, { drained: true }, drained(action.reason, message))
    }
    case 'skip-volume-wait':
      return withDeletion(
        obs,
        { volumesDetached: true },
        { type: 'VolumesDetached', status: 'True', reason: action.reason, message: '' },
      )
    case 'terminate-instance': {
      const view = toActuatorMachine(machine)
      const deleted = await required(exec.provider).call((a, ctx) => a.delete(ctx, view))
      if (!deleted.ok) return { ...obs, instance: { state: 'failed', failure: deleted.failure } }
      const result = deleted.value
      if (!result.done) {
        return { ...obs, instance: { state: 'terminating', requeueAfterMs: result.requeueAfterMs } }
      }
      return { ...obs, instance: { state: 'absent' }, node: await nodeAfterInstance(deps, obs) }
    }
    case 'delete-node': {
      try {
        await deps.kube.delete(coreTypes.node, { name: action.nodeName })
        event('Normal', 'NodeDeleted', `Deleted Node ${action.nodeName}`)
      } catch (error) {
        if (!action.giveUpOnFailure) throw error
        event(
          'Warning',
          'NodeDeletionTimeout',
          `Could not delete Node ${action.nodeName} within nodeDeletionTimeout; leaving it: ${String(error)}`,
        )
      }
      return { ...obs, node: { state: 'missing' } }
    }
    case 'remove-finalizer': {
      const finalizers = withoutOurFinalizers(machine)
      const patched = await patchMachine(deps, machine, { metadata: { finalizers } })
      return { ...obs, machine: patched, released: true }
    }
    default: {
      const _exhaustive: never = action
      return _exhaustive
    }
  }
}

/**
 * The linked Node once the instance is gone, read through the reconcile's client: free when the
 * provider's delete already read it this run (kwok, whose instance is the Node: gone or going
 * now, so the deletion sequence does not delete it again), else what the observation read
 * (aws: the Node object outlives its instance, and the sequence deletes it).
 */
async function nodeAfterInstance(
  deps: MachineDeps,
  obs: MachineObservation,
): Promise<MachineObservation['node']> {
  if (obs.node.state !== 'found') return obs.node
  const name = obs.node.node.metadata?.name ?? ''
  const node = await deps.kube.get<V1Node & KubeObject>(coreTypes.node, { name })
  if (!node || node.metadata?.uid !== obs.node.node.metadata?.uid) return { state: 'missing' }
  return { ...obs.node, node }
}

/** The Machine's finalizers other than this controller's (current and legacy). */
function withoutOurFinalizers(machine: Machine): string[] {
  const ours: string[] = [machineFinalizer, legacyMachineFinalizer]
  return ((machine as KubeObject).metadata?.finalizers ?? []).filter((f) => !ours.includes(f))
}

/** A merge patch of the Machine, conditioned on the resourceVersion this reconcile holds. */
async function patchMachine(
  deps: MachineDeps,
  machine: Machine,
  patch: { metadata: Record<string, unknown>; spec?: Record<string, unknown> },
): Promise<Machine> {
  const resourceVersion = (machine.metadata as { resourceVersion?: string }).resourceVersion
  return await deps.kube.mergePatch<Machine>(
    machineApiTypes.machine,
    refOf(machine as KubeObject),
    {
      ...patch,
      metadata: { ...patch.metadata, resourceVersion },
    },
  )
}

/** The create claim of this reconcile, as the annotations of a Machine patch. */
function claimAnnotation(exec: MachineExecutor): Record<string, string> {
  return { [createClaimAnnotation]: formatClaim(exec.now, exec.holder.id) }
}

/** Drops the create claim; best effort without a precondition (the claim expires anyway). */
async function releaseClaim(deps: MachineDeps, machine: Machine): Promise<Machine> {
  const patch = { metadata: { annotations: { [createClaimAnnotation]: null } } }
  return await deps.kube
    .mergePatch<Machine>(machineApiTypes.machine, refOf(machine as KubeObject), patch)
    .catch((error: unknown) => {
      deps.log.warn({ err: String(error) }, 'could not release create claim')
      return machine
    })
}

function required(provider: MachineProvider | undefined): MachineProvider {
  if (!provider) throw new Error('the planner asked for a provider call without a provider')
  return provider
}

function drained(reason: string, message: string): ConditionFact {
  return { type: 'Drained', status: 'True', reason, message }
}

/** `obs` with deletion facts updated and `condition` replacing any of its type. */
function withDeletion(
  obs: MachineObservation,
  facts: Partial<NonNullable<MachineObservation['deletion']>>,
  condition: ConditionFact,
): MachineObservation {
  const deletion = {
    drained: false,
    volumesDetached: false,
    attachedVolumes: [],
    startedTimers: {},
    ...obs.deletion,
    ...facts,
  }
  const conditionFacts = [...obs.conditionFacts.filter((c) => c.type !== condition.type), condition]
  return { ...obs, deletion, conditionFacts }
}

function skipDrainMessage(reason: string): string {
  switch (reason) {
    case 'NodeDrainTimeout':
      return 'Drain did not finish within nodeDrainTimeout; deletion continues without it'
    case 'DrainExcluded':
      return 'Drain skipped: the Machine is annotated to exclude draining'
    default:
      return 'Drain skipped: the Machine has no Node'
  }
}
