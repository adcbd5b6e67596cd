/**
 * @module Rules for the label selectors of MachineSets, MachineDeployments and
 * MachineHealthChecks: a selector Kubernetes can build (apimachinery's LabelSelectorAsSelector),
 * and one that picks Machines by a label they carry rather than every Machine lacking one.
 */
import { type LabelSelector, requiresLabel } from '../shared/label-selector'
import type { FieldError } from './field-errors'
import { validateLabelKey, validateLabels, validateLabelValue } from './label-rules'

/**
 * Every reason `selector` at `path` is invalid or selects too much. A selector must require at
 * least one label to be present: a `matchLabels` entry, or an `In` or `Exists` expression. With
 * only `NotIn` and `DoesNotExist` (or nothing) it matches every Machine without that label,
 * ownerless ones included, so a set would adopt and then scale them away.
 */
export function validateSelector(selector: LabelSelector, path: string): FieldError[] {
  const matchLabels = selector.matchLabels ?? {}
  const expressions = selector.matchExpressions ?? []
  const errors = validateLabels(matchLabels, `${path}.matchLabels`)
  expressions.forEach((requirement, index) => {
    errors.push(...requirementErrors(requirement, `${path}.matchExpressions[${index}]`))
  })
  if (Object.keys(matchLabels).length === 0 && expressions.length === 0) {
    errors.push({ path, message: 'Required value: the selector must not be empty' })
  } else if (!requiresLabel(selector)) {
    errors.push({
      path,
      message:
        'Invalid value: the selector must require a label (a matchLabels entry, or an In or Exists ' +
        'expression); with only NotIn and DoesNotExist it selects every Machine without that label',
    })
  }
  return errors
}

type Requirement = NonNullable<LabelSelector['matchExpressions']>[number]

function requirementErrors(requirement: Requirement, path: string): FieldError[] {
  const errors = validateLabelKey(requirement.key, `${path}.key`)
  const values = requirement.values ?? []
  const needsValues = requirement.operator === 'In' || requirement.operator === 'NotIn'
  if (needsValues && values.length === 0) {
    errors.push({
      path: `${path}.values`,
      message: `Required value: must be non-empty when operator is ${requirement.operator}`,
    })
  }
  if (!needsValues && values.length > 0) {
    errors.push({
      path: `${path}.values`,
      message: `Forbidden: may not be specified when operator is ${requirement.operator}`,
    })
  }
  values.forEach((value, index) => {
    errors.push(...validateLabelValue(value, `${path}.values[${index}]`))
  })
  return errors
}
