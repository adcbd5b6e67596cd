/** @module Machine v1alpha1 <-> v1beta1; the spec converters are reused for set templates. */
import type { z } from 'zod'
import type { machineSpecV1alpha1Schema, machineStatusV1alpha1Schema } from '../v1alpha1/machine'
import type { machineSpecSchema, machineStatusSchema } from '../v1beta1/machine'
import { type ConversionData, compact, isRecord } from './conversion-data'
import type { Lowered, SpokeConverter } from './spoke-converter'

type HubSpec = z.input<ReturnType<typeof machineSpecSchema>>
type HubStatus = z.input<ReturnType<typeof machineStatusSchema>>
type SpokeSpec = z.input<ReturnType<typeof machineSpecV1alpha1Schema>>
type SpokeStatus = z.input<ReturnType<typeof machineStatusV1alpha1Schema>>

/** A v1beta1 Machine spec down to v1alpha1: classRef becomes valueFrom.machineClass. */
export function machineSpecToV1alpha1(spec: HubSpec): Lowered<SpokeSpec> {
  const kubelet = spec.versions?.kubelet
  const providerSpec = compact({
    provider: spec.providerSpec?.provider,
    value: spec.providerSpec?.value,
    // A null classRef (the apiserver converts before validating) is no reference, not a crash.
    valueFrom: spec.classRef == null ? undefined : { machineClass: { name: spec.classRef.name } },
  })
  return {
    value: compact({
      providerSpec,
      providerID: spec.providerID,
      // v1alpha1 requires versions.kubelet; "" stands for "not set" and the data says which.
      versions: compact({ kubelet: kubelet ?? '', controlPlane: spec.versions?.controlPlane }),
      metadata: spec.metadata,
      taints: spec.taints,
    }),
    data: {
      versions:
        kubelet !== undefined ? undefined : spec.versions === undefined ? 'absent' : 'noKubelet',
      lifecycleHooks: spec.lifecycleHooks,
      nodeDrainTimeout: spec.nodeDrainTimeout,
      nodeVolumeDetachTimeout: spec.nodeVolumeDetachTimeout,
      nodeDeletionTimeout: spec.nodeDeletionTimeout,
      failureDomain: spec.failureDomain,
      provisioningTimeout: spec.provisioningTimeout,
      expireAfter: spec.expireAfter,
    },
  }
}

/** A v1alpha1 Machine spec up to v1beta1, restoring the hub-only fields from `data`. */
export function machineSpecToHub(spec: SpokeSpec, data: ConversionData): HubSpec {
  const legacy = spec.providerSpec ?? {}
  const inline =
    legacy.provider === undefined && legacy.value === undefined
      ? undefined
      : compact({ provider: legacy.provider, value: legacy.value })
  return compact({
    // An inline spec without a provider is kept as is; admission then names the missing field.
    providerSpec: inline as HubSpec['providerSpec'],
    classRef: legacy.valueFrom?.machineClass,
    providerID: spec.providerID,
    versions: versionsToHub(spec.versions, data.versions),
    metadata: spec.metadata,
    taints: spec.taints,
    lifecycleHooks: data.lifecycleHooks as HubSpec['lifecycleHooks'],
    nodeDrainTimeout: data.nodeDrainTimeout as string | undefined,
    nodeVolumeDetachTimeout: data.nodeVolumeDetachTimeout as string | undefined,
    nodeDeletionTimeout: data.nodeDeletionTimeout as string | undefined,
    failureDomain: data.failureDomain as string | undefined,
    provisioningTimeout: data.provisioningTimeout as string | undefined,
    expireAfter: data.expireAfter as string | undefined,
  })
}

function versionsToHub(
  versions: SpokeSpec['versions'] | undefined,
  marker: unknown,
): HubSpec['versions'] {
  if (!isRecord(versions)) return versions
  // Only an untouched "" means "was not set": a user who typed a kubelet version meant it.
  if (versions.kubelet !== '' || (marker !== 'absent' && marker !== 'noKubelet')) return versions
  if (marker === 'absent' && versions.controlPlane === undefined) return undefined
  return compact({ controlPlane: versions.controlPlane })
}

/** The Machine converter: errorReason/errorMessage are failureReason/failureMessage in v1beta1. */
export const machineConverter: SpokeConverter<HubSpec, HubStatus, SpokeSpec, SpokeStatus> = {
  kind: 'Machine',
  specDown: machineSpecToV1alpha1,
  specUp: machineSpecToHub,
  statusDown: (status) => ({
    value: compact({
      phase: status.phase,
      nodeRef: status.nodeRef,
      addresses: status.addresses,
      providerStatus: status.providerStatus,
      versions: status.versions,
      errorReason: status.failureReason,
      errorMessage: status.failureMessage,
      lastUpdated: status.lastUpdated,
    }),
    data: {
      conditions: status.conditions,
      observedGeneration: status.observedGeneration,
      deletion: status.deletion,
      failureClassGeneration: status.failureClassGeneration,
      builtFrom: status.builtFrom,
    },
  }),
  statusUp: (status, data) =>
    compact({
      phase: status.phase,
      nodeRef: status.nodeRef,
      addresses: status.addresses,
      providerStatus: status.providerStatus,
      versions: status.versions,
      failureReason: status.errorReason,
      failureMessage: status.errorMessage,
      lastUpdated: status.lastUpdated,
      conditions: data.conditions as HubStatus['conditions'],
      observedGeneration: data.observedGeneration as number | undefined,
      deletion: data.deletion as HubStatus['deletion'],
      failureClassGeneration: data.failureClassGeneration as number | undefined,
      builtFrom: data.builtFrom as HubStatus['builtFrom'],
    }),
}
