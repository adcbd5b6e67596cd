/**
 * @module Defaulting of any object of the group: zod defaults plus the cross-field defaults zod
 * cannot express (replicas, selector <-> template labels, rolling update parameters).
 */
import { LABELS } from '../group'
import { type Kind, kindDefinition } from '../kinds'
import { isEmptySelector, type LabelSelector } from '../shared/label-selector'
import { labelValueError } from '../shared/label-syntax'
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

/**
 * Replicas, a selector for an unselective set, and selector labels copied into the template. A
 * field of the wrong type (a string where the selector belongs) is left for validation to name,
 * never replaced; a name that cannot be a label value (over 63 characters) gets no selector.
 */
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
  if (!absentOrObject(spec.selector)) return object
  let selector = (asObject(spec.selector) ?? {}) as LabelSelector
  const name = metadata.name
  if (
    isEmptySelector(selector) &&
    typeof name === 'string' &&
    labelValueError(name) === undefined
  ) {
    selector = { ...selector, matchLabels: { [nameLabel]: name } }
    spec.selector = selector
  }
  const template = asObject(spec.template)
  if (template === undefined || !absentOrObject(template.metadata)) return object
  const templateMeta = asObject(template.metadata) ?? {}
  const matchLabels = asObject(selector.matchLabels)
  if (matchLabels === undefined || !absentOrObject(templateMeta.labels)) return object
  // Tie the template to the selector: Machines stamped from it must be selected by their set.
  const labels = (asObject(templateMeta.labels) ?? {}) as Record<string, string>
  const missing = Object.entries(matchLabels).filter(([key]) => !Object.hasOwn(labels, key))
  if (missing.length > 0) {
    template.metadata = { ...templateMeta, labels: { ...labels, ...Object.fromEntries(missing) } }
  }
  return object
}

// Defaults fill what is absent; what is present with the wrong type stays for validation to name.
function absentOrObject(value: unknown): boolean {
  return value === undefined || value === null || asObject(value) !== undefined
}

/** RollingUpdate gets maxSurge 1 / maxUnavailable 0: one extra Machine at a time, none lost. */
function defaultRollingUpdate(object: Raw): Raw {
  const spec = asObject(object.spec)
  if (spec === undefined) return object
  if (!absentOrObject(spec.strategy)) return object
  const strategy = asObject(spec.strategy) ?? { type: 'RollingUpdate' }
  spec.strategy = strategy
  if (strategy.type === undefined) strategy.type = 'RollingUpdate'
  if (strategy.type !== 'RollingUpdate' || !absentOrObject(strategy.rollingUpdate)) return object
  const rolling = asObject(strategy.rollingUpdate) ?? {}
  strategy.rollingUpdate = {
    ...rolling,
    maxSurge: rolling.maxSurge ?? 1,
    maxUnavailable: rolling.maxUnavailable ?? 0,
  }
  return object
}
