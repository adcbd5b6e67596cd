/** @module Rules shared by MachineSet and MachineDeployment: selector vs template, immutable selector. */
import { isDeepStrictEqual } from 'node:util'
import { type LabelSelector, selectorMatches } from '../shared/label-selector'
import type { FieldError } from './field-errors'
import { validateTemplateMeta } from './label-rules'
import { validateSelector } from './selector-rules'

/** The parts of a set spec these rules look at. */
export interface SetLikeSpec {
  selector: LabelSelector
  template: {
    metadata?:
      | {
          labels?: Record<string, string> | undefined
          annotations?: Record<string, string> | undefined
        }
      | undefined
  }
}

/**
 * The selector must be valid and select by a label (selector-rules.ts), the template's labels and
 * annotations must be valid on a Machine, and the labels must match the selector (else the set's
 * own Machines are orphaned).
 */
export function validateSelectorMatchesTemplate(spec: SetLikeSpec): FieldError[] {
  const selectorErrors = validateSelector(spec.selector, 'spec.selector')
  const metaErrors = validateTemplateMeta(spec.template.metadata, 'spec.template.metadata')
  if (selectorErrors.length > 0 || metaErrors.length > 0) return [...selectorErrors, ...metaErrors]
  const labels = spec.template.metadata?.labels ?? {}
  if (!selectorMatches(spec.selector, labels)) {
    return [
      {
        path: 'spec.template.metadata.labels',
        message: 'Invalid value: the template labels must match spec.selector',
      },
    ]
  }
  return []
}

/** On update, the selector may not change: Machines selected under the old one would be orphaned. */
export function validateSelectorUnchanged(
  spec: SetLikeSpec,
  old: SetLikeSpec | undefined,
): FieldError[] {
  if (old === undefined || isDeepStrictEqual(normalise(spec.selector), normalise(old.selector)))
    return []
  return [{ path: 'spec.selector', message: 'Forbidden: the selector is immutable' }]
}

function normalise(selector: LabelSelector): LabelSelector {
  return {
    matchLabels: selector.matchLabels ?? {},
    matchExpressions: selector.matchExpressions ?? [],
  }
}
