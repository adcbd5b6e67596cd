/**
 * @module Which template changes start a rollout. The hash covers the Machine spec minus the fields
 * that are propagated in place (template labels and annotations, Node metadata and taints, the
 * drain / volume-detach / Node-deletion timeouts), so relabelling a deployment never replaces a
 * Machine, while a new class, provider spec or version does. The hash also names the MachineSet,
 * so two concurrent reconciles that start the same rollout collide on AlreadyExists instead of
 * creating two sets (Cluster API's random suffix needed a cache workaround for that, #12551).
 */
import { createHash } from 'node:crypto'
import type { MachineSet } from '../../api/v1beta1/machine-set'
import { IN_PLACE_SPEC_FIELDS } from '../machine-set/machine-template'

type Template = MachineSet['spec']['template']

const alphabet = 'bcdfghjklmnpqrstvwxz2456789'
const hashLength = 10

/** The parts of a template whose change needs new Machines. */
export function rolloutFields(template: Template): Record<string, unknown> {
  const spec: Record<string, unknown> = { ...template.spec }
  for (const field of IN_PLACE_SPEC_FIELDS) delete spec[field]
  return spec
}

/** JSON with object keys sorted, so equal values always hash equally. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** A 10-character, label-safe hash of the template's rollout fields. */
export function templateHash(template: Template): string {
  const digest = createHash('sha256')
    .update(stableJson(rolloutFields(template)))
    .digest()
  let out = ''
  for (let i = 0; i < hashLength; i++) out += alphabet[(digest[i] ?? 0) % alphabet.length]
  return out
}

/** The name of the deployment's MachineSet for a template hash. */
export function machineSetNameFor(deploymentName: string, hash: string): string {
  return `${deploymentName.slice(0, 253 - hashLength - 1)}-${hash}`
}
