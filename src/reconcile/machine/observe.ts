/**
 * @module Every read a Machine reconcile decides on: the provider (inline spec or MachineClass),
 * what it reports about the instance, the linked Node, the create claim and, while deleting, the
 * volumes still attached; and the reads later in a run: the Node lookup (`find-node`) and the
 * Node once the instance is gone. Reads only: nothing here changes the world.
 */
import type { V1Node } from '@kubernetes/client-node'
import { machineApiTypes } from '../../api/resource-types'
import type { Machine } from '../../api/v1beta1/machine'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import { listPages } from '../../kube/paged-list'
import { coreTypes, type KubeObject, type ResourceType } from '../../kube/resource'
import { toActuatorMachine } from '../../providers/machine'
import { isConditionTrue } from '../shared/conditions'
import { hasFinalizer } from './actions'
import { type ClaimHolder, createClaimAnnotation, parseClaim } from './claim-holder'
import type { MachineDeps } from './machine-deps'
import { findNode } from './node-linking'
import { foreignNodeReason } from './node-ownership'
import type {
  ClaimObservation,
  DeletionFacts,
  InstanceObservation,
  MachineObservation,
  NodeObservation,
  Problem,
} from './observation'
import { type MachineProvider, machineProvider } from './provider-context'
import { resolveProvider } from './provider-resolution'
import { recordedAccess, refreshingOnStaleAccess } from './recorded-access'
import { providerAskNeeded } from './settled-wake'
import { failureStands } from './standing-failure'

/** Observes `machine`; also returns its provider for the executor, when one is usable. */
export async function observeMachine(
  deps: MachineDeps,
  machine: Machine,
  holder: ClaimHolder,
  watchEvent = false,
): Promise<{ observation: MachineObservation; provider: MachineProvider | undefined }> {
  const { node, nodeRefMismatch } = await linkedNode(deps, machine)
  const claim = claimOf(machine, holder)
  if (!providerAskNeeded(machine, node, watchEvent)) {
    // Woken by a watch event of a settled Machine: the instance is as the last run reported
    // (settled-wake.ts), so neither the provider nor the MachineClass is read.
    const instance = { state: 'present' } as const
    return {
      observation: { machine, instance, node, ...(claim ? { claim } : {}) },
      provider: undefined,
    }
  }
  const deleting = Boolean((machine as KubeObject).metadata?.deletionTimestamp)
  const { resolved, classGeneration, providerName, machineClass } = deleting
    ? await deletingMachineProvider(deps, machine)
    : await resolveMachineProvider(deps, machine)
  const provider = 'call' in resolved ? resolved : undefined
  const failed = !deleting && failureStands(machine, classGeneration)
  const instance: InstanceObservation =
    provider && !failed
      ? neverCreated(machine, deleting)
        ? { state: 'absent' }
        : await askInstance(provider, machine, deleting)
      : { state: 'not-asked' }
  return {
    observation: {
      machine,
      ...(classGeneration !== undefined ? { classGeneration } : {}),
      ...(machineClass ? { machineClass } : {}),
      ...(providerName ? { providerName } : {}),
      ...(provider ? {} : { providerProblem: resolved as Problem }),
      instance,
      node,
      ...(claim ? { claim } : {}),
      ...(nodeRefMismatch ? { nodeRefMismatch } : {}),
      ...(deleting ? { deletion: await deletionFacts(deps, machine, node) } : {}),
    },
    provider,
  }
}

/**
 * A resolved provider (or why there is none), its name, and the class it read (and its
 * generation).
 */
interface ResolvedProvider {
  resolved: MachineProvider | Problem
  classGeneration?: number | undefined
  providerName?: string | undefined
  machineClass?: MachineClass | undefined
}

/**
 * The provider of a Machine being deleted: called with the access recorded with its instance,
 * so no MachineClass is read (recorded-access.ts); the class is read fresh only when nothing is
 * recorded (an instance recorded before access was), or once when the recorded access fails.
 */
async function deletingMachineProvider(
  deps: MachineDeps,
  machine: Machine,
): Promise<ResolvedProvider> {
  const access = recordedAccess(machine)
  const provider = access && deps.providers.get(access.provider)
  if (!access || !provider) return resolveMachineProvider(deps, machine)
  const recorded = machineProvider(deps, machine, provider.actuator, { access: access.facts })
  const fresh = async () => {
    const { resolved } = await resolveMachineProvider(deps, machine)
    return 'call' in resolved ? resolved : undefined
  }
  return { resolved: refreshingOnStaleAccess(recorded, fresh), providerName: access.provider }
}

/** The Machine's provider (or why there is none) and the generation of the class it read. */
async function resolveMachineProvider(
  deps: MachineDeps,
  machine: Machine,
): Promise<ResolvedProvider> {
  const classRef = machine.spec.classRef
  const machineClass = classRef
    ? await deps.kube.get<MachineClass>(machineApiTypes.machineClass, {
        namespace: machine.metadata.namespace,
        name: classRef.name,
      })
    : undefined
  const classGeneration = machineClass?.metadata.generation
  const resolution = resolveProvider(machine, machineClass)
  if (!resolution.ok)
    return { resolved: { reason: resolution.reason, message: resolution.message }, machineClass }
  const provider = deps.providers.get(resolution.provider)
  if (!provider) {
    const have = deps.providers.names().join(', ') || 'none'
    const message = `provider "${resolution.provider}" is not available in this deployment (have: ${have})`
    return { resolved: { reason: 'UnknownProvider', message }, classGeneration, machineClass }
  }
  const resolved = machineProvider(deps, machine, provider.actuator, resolution, machineClass)
  return { resolved, classGeneration, machineClass, providerName: resolution.provider }
}

/**
 * Whether no instance of this Machine can exist yet, so the provider need not be asked. The
 * planner creates only once the finalizer is on, and adds it with the Machine's resourceVersion
 * as precondition: a Machine without it (and without a recorded providerID, which an adopted
 * instance would have) was never created by us. If the Machine this run holds is stale, the
 * finalizer patch fails on its precondition and the run starts over from a fresh read; and
 * `create` adopts what an earlier attempt left anyway.
 */
function neverCreated(machine: Machine, deleting: boolean): boolean {
  return !deleting && !hasFinalizer(machine as KubeObject) && !machine.spec.providerID
}

/**
 * Asks the provider whether the instance exists and, outside deletion, for its current report
 * (`update`). A failure is an observation too: the planner decides what it means.
 */
async function askInstance(
  provider: MachineProvider,
  machine: Machine,
  deleting: boolean,
): Promise<InstanceObservation> {
  const view = toActuatorMachine(machine)
  const exists = await provider.call((actuator, ctx) => actuator.exists(ctx, view))
  if (!exists.ok) return { state: 'failed', failure: exists.failure }
  if (!exists.value) return { state: 'absent' }
  if (deleting) return { state: 'present' }
  const update = await provider.call((actuator, ctx) => actuator.update(ctx, view))
  if (!update.ok) return { state: 'failed', failure: update.failure }
  return { state: 'present', result: update.value }
}

/**
 * The Node status.nodeRef names, or `not-looked-up` when the Machine is not linked yet. Status
 * is not trusted with another Machine's Node: a Node that is not this Machine's own is reported
 * as a mismatch and looked up again (by providerID), never drained, deleted or written.
 */
async function linkedNode(
  deps: MachineDeps,
  machine: Machine,
): Promise<{ node: NodeObservation; nodeRefMismatch?: string }> {
  const nodeRef = machine.status?.nodeRef
  if (!nodeRef) return { node: { state: 'not-looked-up' } }
  const node = await deps.kube.get<V1Node & KubeObject>(coreTypes.node, { name: nodeRef.name })
  if (!node || (nodeRef.uid && node.metadata?.uid !== nodeRef.uid)) {
    return { node: { state: 'gone', name: nodeRef.name } }
  }
  const foreign = foreignNodeReason(machine, node)
  if (foreign) return { node: { state: 'not-looked-up' }, nodeRefMismatch: foreign }
  return { node: { state: 'found', node, linked: true } }
}

function claimOf(machine: Machine, holder: ClaimHolder): ClaimObservation | undefined {
  const value = machine.metadata.annotations?.[createClaimAnnotation]
  if (!value) return undefined
  const claim = parseClaim(value)
  return {
    at: claim.at,
    mine: false,
    holderDead: claim.holder !== undefined && holder.isDead(claim.holder),
    ...(claim.forDeletion ? { forDeletion: true } : {}),
  }
}

/**
 * The Node that joined for the instance (the `find-node` action; node-linking.ts says how). While
 * deleting, also the volumes still attached to it.
 */
export async function lookUpNode(
  deps: MachineDeps,
  obs: MachineObservation,
  providerID: string | undefined,
): Promise<{ node: NodeObservation; attachedVolumes?: string[] }> {
  const result = obs.instance.state === 'present' ? obs.instance.result : undefined
  const node = await findNode(deps.kube, {
    providerID,
    nodeName: result?.nodeName,
    addresses: result?.addresses ?? [],
  })
  if (!node) return { node: { state: 'missing' } }
  const found = { state: 'found', node, linked: false } as const
  if (!obs.deletion) return { node: found }
  const volumes = obs.deletion.volumesDetached ? [] : await attachedVolumes(deps, node)
  return { node: found, attachedVolumes: volumes }
}

/**
 * The linked Node once the instance is gone, read through the reconcile's client: free when the
 * provider's delete already read it this run (kwok, whose instance is the Node: gone or going
 * now, so the deletion sequence does not delete it again), else what the observation read
 * (aws: the Node object outlives its instance, and the sequence deletes it).
 */
export async function nodeAfterInstance(
  deps: MachineDeps,
  before: NodeObservation,
): Promise<NodeObservation> {
  if (before.state !== 'found') return before
  const name = before.node.metadata?.name ?? ''
  const node = await deps.kube.get<V1Node & KubeObject>(coreTypes.node, { name })
  if (!node || node.metadata?.uid !== before.node.metadata?.uid) return { state: 'missing' }
  return { ...before, node }
}

/** What earlier passes finished (conditions) and the volumes still attached to the Node. */
async function deletionFacts(
  deps: MachineDeps,
  machine: Machine,
  node: NodeObservation,
): Promise<DeletionFacts> {
  const conditions = machine.status?.conditions
  const volumesDetached = isConditionTrue(conditions, 'VolumesDetached')
  return {
    drained: isConditionTrue(conditions, 'Drained'),
    volumesDetached,
    attachedVolumes:
      node.state === 'found' && !volumesDetached ? await attachedVolumes(deps, node.node) : [],
    startedTimers: {},
  }
}

const volumeAttachmentType: ResourceType = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'VolumeAttachment',
  plural: 'volumeattachments',
  namespaced: false,
}

/** Volumes the Node reports attached plus VolumeAttachments still bound to it. */
async function attachedVolumes(deps: MachineDeps, node: V1Node): Promise<string[]> {
  const names = new Set((node.status?.volumesAttached ?? []).map((v) => v.name))
  const pages = listPages<
    KubeObject & { spec?: { nodeName?: string }; status?: { attached?: boolean } }
  >(deps.kube, volumeAttachmentType)
  for await (const page of pages) {
    for (const va of page.items) {
      if (va.spec?.nodeName === node.metadata?.name && va.status?.attached)
        names.add(va.metadata?.name ?? '')
    }
  }
  return [...names].sort()
}
