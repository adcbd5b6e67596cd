/**
 * @module Which changes start a rollout. The hash covers the Machine spec minus the fields
 * that are propagated in place (template labels and annotations, Node metadata and taints, the
 * drain / volume-detach / Node-deletion timeouts), so relabelling a deployment never replaces a
 * Machine, while a new class, provider spec or version does. For a template that names a
 * MachineClass it also covers the class's content (class-content.ts), so editing the class (its
 * instance type, its AMI) rolls every deployment that uses it through the same RollingUpdate or
 * OnDelete machinery as a template edit; and `spec.rolloutAfter`, once passed (rollout-target.ts),
 * so that time rolls the deployment exactly once. The hash also names the MachineSet,
 * so two concurrent reconciles that start the same rollout collide on AlreadyExists instead of
 * creating two sets (Cluster API's random suffix needed a cache workaround for that, #12551).
 */
import type { MachineSet } from '../../api/v1beta1/machine-set'
import { IN_PLACE_SPEC_FIELDS } from '../machine-set/machine-template'
import { hashLength, shortHash } from '../shared/content-hash'

type Template = MachineSet['spec']['template']

/** What besides the template a rollout is made of. */
export interface RolloutInputs {
  /** The content hash of the template's MachineClass (class-content.ts), when it names one. */
  classHash?: string | undefined
  /** spec.rolloutAfter, once it has passed and rolled the deployment (rollout-target.ts). */
  rolloutAfter?: string | undefined
}

/** The parts of a template whose change needs new Machines. */
export function rolloutFields(template: Template): Record<string, unknown> {
  const spec: Record<string, unknown> = { ...template.spec }
  for (const field of IN_PLACE_SPEC_FIELDS) delete spec[field]
  return spec
}

/**
 * A 10-character, label-safe hash of the template's rollout fields and `inputs`. Without inputs it
 * is the hash of earlier versions (the template alone), so their sets stay current on upgrade.
 */
export function templateHash(template: Template, inputs: RolloutInputs = {}): string {
  const fields = rolloutFields(template)
  if (inputs.classHash === undefined && inputs.rolloutAfter === undefined) return shortHash(fields)
  return shortHash({ template: fields, ...inputs })
}

/** The name of the deployment's MachineSet for a template hash. */
export function machineSetNameFor(deploymentName: string, hash: string): string {
  return `${deploymentName.slice(0, 253 - hashLength - 1)}-${hash}`
}
