/**
 * @module Defaulting of any object of the group: zod defaults plus the cross-field defaults zod
 * cannot express (replicas, selector <-> template labels, rolling update parameters).
 */
import { LABELS } from '../group'
import { type Kind, kindDefinition } from '../kinds'
import { isEmptySelector, type LabelSelector } from '../shared/label-selector'
import { mergeDefaults } from './merge-defaults'
import { defaultReplicas } from './replicas'

type Raw = Record<string, unknown>

/**
 * Returns a defaulted copy of the raw v1beta1 `object` (`old` on update). Unknown fields are kept;
 * an object zod rejects gets only the cross-field defaults (validation reports the rest).
 */
export function defaultObject(kind: Kind, object: Raw, old: Raw | undefined): Raw {
  const schema = kindDefinition(kind).schemas.v1beta1()
  const parsed = schema.safeParse(object)
  // Work on a copy: the cross-field defaults below mutate nested objects in place. mergeDefaults
  // already copies every object and array the schema knows, which is all those defaults touch.
  const withZod = parsed.success
    ? (mergeDefaults(object, parsed.data) as Raw)
    : structuredClone(object)
  if (kind === 'MachineSet') return defaultSet(withZod, old, LABELS.setName)
  if (kind === 'MachineDeployment')
    return defaultRollingUpdate(defaultSet(withZod, old, LABELS.deploymentName))
  return withZod
}

function asObject(value: unknown): Raw | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Raw)
    : undefined
}

/** Replicas, a selector for an unselective set, and selector labels copied into the template. */
function defaultSet(object: Raw, old: Raw | undefined, nameLabel: string): Raw {
  const metadata = asObject(object.metadata) ?? {}
  const spec = asObject(object.spec)
  if (spec === undefined) return object
  if (spec.replicas === undefined) {
    const oldReplicas = asObject(old?.spec)?.replicas
    spec.replicas = defaultReplicas(
      asObject(metadata.annotations) as Record<string, string> | undefined,
      typeof oldReplicas === 'number' ? oldReplicas : undefined,
    )
  }
  let selector = (asObject(spec.selector) ?? {}) as LabelSelector
  if (isEmptySelector(selector) && typeof metadata.name === 'string') {
    selector = { ...selector, matchLabels: { [nameLabel]: metadata.name } }
    spec.selector = selector
  }
  const template = asObject(spec.template)
  if (template !== undefined && selector.matchLabels !== undefined) {
    // Tie the template to the selector: Machines stamped from it must be selected by their set.
    const templateMeta = asObject(template.metadata) ?? {}
    const labels = (asObject(templateMeta.labels) ?? {}) as Record<string, string>
    const missing = Object.entries(selector.matchLabels).filter(
      ([key]) => !Object.hasOwn(labels, key),
    )
    if (missing.length > 0) {
      template.metadata = { ...templateMeta, labels: { ...labels, ...Object.fromEntries(missing) } }
    }
  }
  return object
}

/** RollingUpdate gets maxSurge 1 / maxUnavailable 0: one extra Machine at a time, none lost. */
function defaultRollingUpdate(object: Raw): Raw {
  const spec = asObject(object.spec)
  if (spec === undefined) return object
  const strategy = asObject(spec.strategy) ?? { type: 'RollingUpdate' }
  spec.strategy = strategy
  if (strategy.type === undefined) strategy.type = 'RollingUpdate'
  if (strategy.type !== 'RollingUpdate') return object
  const rolling = asObject(strategy.rollingUpdate) ?? {}
  strategy.rollingUpdate = {
    ...rolling,
    maxSurge: rolling.maxSurge ?? 1,
    maxUnavailable: rolling.maxUnavailable ?? 0,
  }
  return object
}
