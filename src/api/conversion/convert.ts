/** @module Converts any object of the group to a requested version (what /convert does per object). */
import { HUB_API_VERSION, SPOKE_API_VERSION } from '../group'
import { isKind, type Kind } from '../kinds'
import { machineConverter } from './machine'
import { machineClassConverter } from './machine-class'
import { machineDeploymentConverter } from './machine-deployment'
import { machineHealthCheckConverter } from './machine-health-check'
import { machineSetConverter } from './machine-set'
import {
  convertToHub,
  convertToSpoke,
  type KubeObject,
  type SpokeConverter,
} from './spoke-converter'

// The converters differ in their spec/status types; at this boundary objects are plain JSON.
type AnyConverter = SpokeConverter<never, never, never, never>

const CONVERTERS: Record<Kind, AnyConverter> = {
  Machine: machineConverter as unknown as AnyConverter,
  MachineSet: machineSetConverter as unknown as AnyConverter,
  MachineDeployment: machineDeploymentConverter as unknown as AnyConverter,
  MachineHealthCheck: machineHealthCheckConverter as unknown as AnyConverter,
  MachineClass: machineClassConverter as unknown as AnyConverter,
}

/** Why an object could not be converted (reported in the ConversionReview result). */
export class ConversionError extends Error {
  override readonly name = 'ConversionError'
}

const SUPPORTED = [HUB_API_VERSION, SPOKE_API_VERSION]

/**
 * Converts `object` to `desiredApiVersion`. Objects already at that version are returned as is.
 * Throws ConversionError for unknown kinds or versions and for objects without metadata. A spec or
 * status that is not an object (a string, a list, null, none at all) is carried over unchanged:
 * the apiserver converts a request before validating it, so a failure here would reach the user
 * as a 500, while the carried-over value is refused by validation with a 4xx naming the field.
 */
export function convertObject(object: unknown, desiredApiVersion: string): Record<string, unknown> {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    throw new ConversionError('object is not a JSON object')
  }
  const candidate = object as Record<string, unknown>
  const { apiVersion, kind } = candidate
  if (!isKind(kind)) throw new ConversionError(`kind: unsupported kind ${JSON.stringify(kind)}`)
  if (typeof apiVersion !== 'string' || !SUPPORTED.includes(apiVersion)) {
    throw new ConversionError(`apiVersion: unsupported ${JSON.stringify(apiVersion)}`)
  }
  if (!SUPPORTED.includes(desiredApiVersion)) {
    throw new ConversionError(`desiredAPIVersion: unsupported ${JSON.stringify(desiredApiVersion)}`)
  }
  if (apiVersion === desiredApiVersion) return candidate
  if (!isPlainObject(candidate.metadata)) throw new ConversionError('metadata: must be an object')
  const { spec, status } = candidate
  const typed = {
    ...candidate,
    spec: isPlainObject(spec) ? spec : {},
    status: isPlainObject(status) ? status : undefined,
  } as unknown as KubeObject<never, never>
  const converter = CONVERTERS[kind]
  const converted = (desiredApiVersion === HUB_API_VERSION
    ? convertToHub(converter, typed)
    : convertToSpoke(converter, typed)) as unknown as Record<string, unknown>
  return carryMalformed(converted, { spec, status })
}

// Puts back a spec or status that was not an object, exactly as it came (or absent when it was).
function carryMalformed(
  converted: Record<string, unknown>,
  original: { spec: unknown; status: unknown },
): Record<string, unknown> {
  const specOk = isPlainObject(original.spec)
  const statusOk = original.status === undefined || isPlainObject(original.status)
  if (specOk && statusOk) return converted
  const { spec: _spec, status: _status, ...rest } = converted
  const out: Record<string, unknown> = { ...rest }
  out.spec = specOk ? converted.spec : original.spec
  if (converted.status !== undefined || !statusOk)
    out.status = statusOk ? converted.status : original.status
  if (out.spec === undefined) delete out.spec
  return out
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
