/** @module Hub-and-spoke conversion of whole objects: metadata, spec and status, with the conversion annotation. */
import type { z } from 'zod'
import { HUB_API_VERSION, SPOKE_API_VERSION } from '../group'
import type { Kind } from '../kinds'
import type { ObjectMeta } from '../shared/meta'
import {
  attachConversionData,
  type ConversionData,
  compact,
  dataObject,
  detachConversionData,
} from './conversion-data'

/** A part converted down to the spoke, plus the hub data the spoke cannot hold. */
export interface Lowered<T> {
  value: T
  data: ConversionData
}

/** An object as the conversion webhook sees it: envelope typed, spec and status per kind. */
export interface KubeObject<Spec, Status> {
  apiVersion: string
  kind: string
  metadata: ObjectMeta
  spec: Spec
  status?: Status | undefined
}

type Part<Schema extends z.ZodType, Key extends string> =
  z.input<Schema> extends {
    [K in Key]?: infer P
  }
    ? NonNullable<P>
    : never

/**
 * The spec and status types of a kind at the hub and at the spoke, read from its two object
 * schemas (input types: conversion runs before defaulting).
 */
export interface Versions<HubSchema extends z.ZodType, SpokeSchema extends z.ZodType> {
  hubSpec: Part<HubSchema, 'spec'>
  hubStatus: Part<HubSchema, 'status'>
  spokeSpec: Part<SpokeSchema, 'spec'>
  spokeStatus: Part<SpokeSchema, 'status'>
}

/** The converter of a kind whose types are `T`. */
export type ConverterOf<
  T extends { hubSpec: unknown; hubStatus: unknown; spokeSpec: unknown; spokeStatus: unknown },
> = SpokeConverter<T['hubSpec'], T['hubStatus'], T['spokeSpec'], T['spokeStatus']>

/** The per-kind conversion of spec and status between the hub (v1beta1) and the spoke (v1alpha1). */
export interface SpokeConverter<HubSpec, HubStatus, SpokeSpec, SpokeStatus> {
  kind: Kind
  specDown(spec: HubSpec): Lowered<SpokeSpec>
  specUp(spec: SpokeSpec, data: ConversionData): HubSpec
  statusDown(status: HubStatus): Lowered<SpokeStatus>
  statusUp(status: SpokeStatus, data: ConversionData): HubStatus
}

/** Data only when it holds something, so an object that converts without loss carries no annotation. */
export function nonEmpty(data: ConversionData | undefined): ConversionData | undefined {
  if (data === undefined) return undefined
  const compacted = compact(data)
  return Object.keys(compacted).length === 0 ? undefined : compacted
}

/** Converts a hub (v1beta1) object to the spoke (v1alpha1). */
export function convertToSpoke<HS, HT, SS, ST>(
  converter: SpokeConverter<HS, HT, SS, ST>,
  hub: KubeObject<HS, HT>,
): KubeObject<SS, ST> {
  const spec = converter.specDown(hub.spec)
  const status = hub.status === undefined ? undefined : converter.statusDown(hub.status)
  const data = { spec: nonEmpty(spec.data), status: nonEmpty(status?.data) }
  return compact({
    apiVersion: SPOKE_API_VERSION,
    kind: hub.kind,
    metadata: attachConversionData(hub.metadata, data),
    spec: spec.value,
    status: status?.value,
  })
}

/** Converts a spoke (v1alpha1) object to the hub (v1beta1), restoring annotated hub-only fields. */
export function convertToHub<HS, HT, SS, ST>(
  converter: SpokeConverter<HS, HT, SS, ST>,
  spoke: KubeObject<SS, ST>,
): KubeObject<HS, HT> {
  const { meta, data } = detachConversionData(spoke.metadata)
  return compact({
    apiVersion: HUB_API_VERSION,
    kind: spoke.kind,
    metadata: meta,
    spec: converter.specUp(spoke.spec, dataObject(data, 'spec') ?? {}),
    status:
      spoke.status === undefined
        ? undefined
        : converter.statusUp(spoke.status, dataObject(data, 'status') ?? {}),
  })
}
