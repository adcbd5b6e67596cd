/**
 * @module The MachineClass controller: asks the class's provider what one Machine of it provides
 * (aws: DescribeInstanceTypes for the instance type; kwok: its allocatable) and writes it to the
 * class's `status.capacity` and `status.nodeInfo`, last and conditional on the resourceVersion
 * read; and drops the entries of `status.unavailableOfferings` (written by Machine launches) as
 * they expire; and publishes the class's content hash (shared/class-content.ts), what its Machines
 * record as built from; and, for a class that follows the newest image matching its filters,
 * resolves it (each reconcile and sweep) and publishes it in `status.image`, part of the content
 * hash, so a newer image rolls the class's deployments and its Machines launch it. A controller rather than admission defaulting, because the answer needs the provider's
 * API and credentials (a webhook must answer fast and holds no cloud credentials) and because the
 * result is observed state, which belongs in status.
 */
import { machineApiTypes } from '../../api/resource-types'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import { deadlineSignal } from '../../deadline-signal'
import { PermanentError, TransientError } from '../../errors'
import type { ObjectKey } from '../../kube/object-key'
import type { KubeObject } from '../../kube/resource'
import type { CapacityRequest, FollowedImage } from '../../providers/capacity'
import type { ProviderRegistry } from '../../providers/registry'
import { namespacedSecretReader } from '../../providers/secret-reader'
import type { Controller, ReconcileDeps, ReconcileResult } from '../runtime/controller'
import { writeStatus } from '../runtime/status-write'
import { classContentHash } from '../shared/class-content'
import { hostableZones } from '../shared/hostable-zones'
import { statusUnchanged } from '../shared/status-unchanged'
import { unexpired, untilNextExpiry } from '../shared/unavailable-offerings'
import {
  type CapacityOutcome,
  capacityCurrent,
  capacityStatus,
  statusPatch,
} from './capacity-status'

/** How long one provider call may take. */
const callTimeoutMs = 30_000

type ClassObject = MachineClass & KubeObject & { metadata: { generation?: number } }

/**
 * Runs `ask` with what a provider call about the class needs: its spec, credentials and a
 * deadline, which the reconcile's own deadline also ends, so an abandoned reconcile stops asking.
 */
async function askAboutClass<T>(
  deps: ReconcileDeps,
  machineClass: ClassObject,
  ask: (request: CapacityRequest) => Promise<T>,
): Promise<T> {
  const deadline = deadlineSignal(callTimeoutMs, deps.signal)
  try {
    return await ask({
      providerSpec: machineClass.spec.providerSpec,
      credentialsSecretRef: machineClass.spec.credentialsSecretRef,
      secrets: namespacedSecretReader(deps.kube, machineClass.metadata.namespace ?? ''),
      signal: deadline.signal,
    })
  } finally {
    deadline.clear()
  }
}

async function askProvider(
  deps: ReconcileDeps,
  providers: ProviderRegistry,
  machineClass: ClassObject,
): Promise<CapacityOutcome> {
  const provider = providers.get(machineClass.spec.provider)
  if (!provider) {
    return {
      type: 'invalid',
      reason: 'UnknownProvider',
      message: `unknown provider "${machineClass.spec.provider}" (this deployment has: ${providers.names().join(', ') || 'none'})`,
    }
  }
  const { capacity } = provider
  if (!capacity) return { type: 'unsupported', provider: provider.name }
  try {
    const result = await askAboutClass(deps, machineClass, (request) =>
      capacity.call(provider, request),
    )
    return { type: 'known', result }
  } catch (error) {
    if (error instanceof PermanentError) {
      return { type: 'invalid', reason: error.reason, message: error.message }
    }
    if (error instanceof TransientError) {
      return { type: 'unavailable', reason: error.reason, message: error.message }
    }
    throw error
  }
}

type ImageOutcome =
  | { type: 'none' }
  | { type: 'known'; image: FollowedImage }
  | { type: 'unavailable'; message: string }

/**
 * The newest image matching the class's filters when it follows it (provider `followedImage`);
 * a failure keeps the published image (its Machines go on launching it) and asks again later.
 */
async function followedImage(
  deps: ReconcileDeps,
  providers: ProviderRegistry,
  machineClass: ClassObject,
): Promise<ImageOutcome> {
  const provider = providers.get(machineClass.spec.provider)
  const follow = provider?.followedImage
  if (!follow) return { type: 'none' }
  try {
    const image = await askAboutClass(deps, machineClass, (request) =>
      follow.call(provider, request),
    )
    return image ? { type: 'known', image } : { type: 'none' }
  } catch (error) {
    if (error instanceof PermanentError || error instanceof TransientError) {
      deps.log.warn({ reason: error.reason, err: error.message }, 'cannot resolve followed image')
      return { type: 'unavailable', message: error.message }
    }
    throw error
  }
}

/** status.image to be: the stored one while the newest is unchanged or unknown. */
function imageStatus(
  stored: NonNullable<MachineClass['status']>['image'],
  outcome: ImageOutcome,
  now: Date,
): NonNullable<MachineClass['status']>['image'] {
  if (outcome.type === 'none') return undefined
  if (outcome.type === 'unavailable' || stored?.id === outcome.image.id) return stored
  const { id, name, creationDate } = outcome.image
  return {
    id,
    ...(name ? { name } : {}),
    ...(creationDate ? { creationDate } : {}),
    resolvedAt: now.toISOString(),
  }
}

/**
 * status.offeredZones and status.zones: the offered zones (those of a status written before
 * offeredZones existed were all offered) and those of them that can host a Machine now
 * (shared/hostable-zones.ts), so a zone whose every offering is remembered unavailable leaves
 * status.zones until the first of its entries expires. `status` is the whole status to be.
 */
function zonesNow(
  machineClass: ClassObject,
  status: NonNullable<MachineClass['status']>,
  now: Date,
): Pick<NonNullable<MachineClass['status']>, 'offeredZones' | 'zones'> {
  const offered = status.offeredZones ?? status.zones
  if (!offered) return {}
  const zones = hostableZones(offered, { spec: machineClass.spec, status }, now)
  return { offeredZones: [...offered], zones }
}

/** Reconciles one MachineClass's capacity status. */
export async function reconcileMachineClass(
  deps: ReconcileDeps & { providers: ProviderRegistry },
  key: ObjectKey,
): Promise<ReconcileResult> {
  const type = machineApiTypes.machineClass
  const machineClass = await deps.kube.get<ClassObject>(type, {
    namespace: key.namespace,
    name: key.name,
  })
  if (!machineClass || machineClass.metadata.deletionTimestamp) return {}
  const now = deps.clock.now()
  const remembered = machineClass.status?.unavailableOfferings
  // Expired misses leave the list (the Machines skip them already), so status shows what holds.
  const offerings = remembered ? { unavailableOfferings: unexpired(remembered, now) } : {}
  const expiry = untilNextExpiry(offerings.unavailableOfferings ?? [], now)
  const capacity = capacityCurrent(machineClass)
    ? undefined
    : await askProvider(deps, deps.providers, machineClass)
  const followed = await followedImage(deps, deps.providers, machineClass)
  const image = imageStatus(machineClass.status?.image, followed, now)
  const status: NonNullable<MachineClass['status']> = {
    ...(capacity ? capacityStatus(machineClass, capacity, now) : {}),
    ...offerings,
    ...(image ? { image } : {}),
    // The published image is part of the content: a newer one rolls the class's deployments.
    contentHash: classContentHash({ ...machineClass, status: { image } }),
  }
  // capacityStatus answers the whole status; otherwise the patch goes over the stored one.
  const whole = capacity ? status : { ...machineClass.status, ...status }
  Object.assign(whole, zonesNow(machineClass, whole, now))
  // A class that stopped following drops its image.
  if (!image) delete whole.image
  const patch = statusPatch(machineClass.status, whole)
  if (!statusUnchanged(machineClass.status, patch)) {
    await writeStatus(deps.kube, type, { observed: machineClass, status: patch })
  }
  // An unanswered question is asked again, and the list is looked at when its first entry
  // expires; the rest waits for a spec change.
  const retry =
    capacity?.type === 'unavailable' || followed.type === 'unavailable' ? 30_000 : undefined
  const next = Math.min(retry ?? Number.POSITIVE_INFINITY, expiry ?? Number.POSITIVE_INFINITY)
  return Number.isFinite(next) ? { requeueAfterMs: next } : {}
}

/** The MachineClass controller for the runtime (`--controllers machineclass`). */
export function machineClassControllerWith(providers: ProviderRegistry): Controller {
  return {
    kind: 'MachineClass',
    resource: machineApiTypes.machineClass,
    reconcile: (deps, key) => reconcileMachineClass({ ...deps, providers }, key),
  }
}
