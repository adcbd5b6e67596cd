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
 * Throws ConversionError for unknown kinds or versions and for objects without spec or metadata.
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
  if (!isPlainObject(candidate.spec)) throw new ConversionError('spec: must be an object')
  if (candidate.status !== undefined && !isPlainObject(candidate.status)) {
    throw new ConversionError('status: must be an object')
  }
  const typed = candidate as unknown as KubeObject<never, never>
  const converter = CONVERTERS[kind]
  const converted =
    desiredApiVersion === HUB_API_VERSION
      ? convertToHub(converter, typed)
      : convertToSpoke(converter, typed)
  return converted as unknown as Record<string, unknown>
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
