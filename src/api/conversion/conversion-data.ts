/**
 * @module The conversion-data annotation: v1beta1 fields a v1alpha1 object cannot hold travel in it
 * and are restored when the object comes back to v1beta1 (the Cluster API pattern, per field).
 */
import { ANNOTATIONS } from '../group'
import type { ObjectMeta } from '../shared/meta'

/** Hub-only data of one object; every key optional, absent keys mean "nothing to restore". */
export type ConversionData = Record<string, unknown>

/**
 * Drops keys whose value is undefined (JSON has no undefined; keeps output identical after a round
 * trip). `value` itself comes back when it has none: callers pass objects they just built.
 */
export function compact<T extends Record<string, unknown>>(value: T): T {
  // Plain loops: every converted object passes here several times (/convert of a LIST page), and
  // most parts (statuses, metadata, provider specs) have nothing to drop, so nothing is copied.
  const keys = Object.keys(value)
  let index = 0
  while (index < keys.length && value[keys[index] as string] !== undefined) index++
  if (index === keys.length) return value
  const out: Record<string, unknown> = {}
  for (const key of keys) {
    const item = value[key]
    if (item === undefined) continue
    // A "__proto__" key from JSON stays an own property, as with Object.fromEntries.
    if (key === '__proto__')
      Object.defineProperty(out, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      })
    else out[key] = item
  }
  return out as T
}

/**
 * Spoke metadata carrying `data` in the conversion annotation (nothing added when data is empty).
 * Records whether the hub had an annotations map at all, so the way back restores that too.
 */
export function attachConversionData(meta: ObjectMeta, data: ConversionData): ObjectMeta {
  const payload = compact(data)
  if (Object.keys(payload).length === 0) return meta
  if (meta.annotations === undefined) payload.noAnnotations = true
  return {
    ...meta,
    annotations: {
      ...(meta.annotations ?? {}),
      [ANNOTATIONS.conversionData]: JSON.stringify(payload),
    },
  }
}

/**
 * Reads and removes the conversion annotation. A missing or unparsable annotation yields empty
 * data: conversion must never fail on what a user typed into an annotation.
 */
export function detachConversionData(meta: ObjectMeta): { meta: ObjectMeta; data: ConversionData } {
  const raw = meta.annotations?.[ANNOTATIONS.conversionData]
  if (raw === undefined) return { meta, data: {} }
  const { [ANNOTATIONS.conversionData]: _removed, ...rest } = meta.annotations ?? {}
  const data = parseData(raw)
  const noAnnotations = data.noAnnotations === true && Object.keys(rest).length === 0
  const { annotations: _old, ...others } = meta
  return { meta: noAnnotations ? others : { ...others, annotations: rest }, data }
}

function parseData(raw: string): ConversionData {
  try {
    const parsed: unknown = JSON.parse(raw)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as ConversionData)
      : {}
  } catch {
    return {}
  }
}

/**
 * True for a JSON object (not null, not an array). Conversion runs before validation, so the
 * converters check each part they reach into and carry anything else over unchanged.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `data[key]` as an object, or undefined. */
export function dataObject(data: ConversionData, key: string): ConversionData | undefined {
  const value = data[key]
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as ConversionData)
    : undefined
}
