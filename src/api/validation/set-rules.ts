/** @module Rules shared by MachineSet and MachineDeployment: selector vs template, immutable selector. */
import { isDeepStrictEqual } from 'node:util'
import { isEmptySelector, type LabelSelector, selectorMatches } from '../shared/label-selector'
import type { FieldError } from './field-errors'

/** The parts of a set spec these rules look at. */
export interface SetLikeSpec {
  selector: LabelSelector
  template: { metadata?: { labels?: Record<string, string> | undefined } | undefined }
}

/** The selector must select something and must match the template labels (else Machines are orphaned). */
export function validateSelectorMatchesTemplate(spec: SetLikeSpec): FieldError[] {
  if (isEmptySelector(spec.selector)) {
    return [{ path: 'spec.selector', message: 'Required value: the selector must not be empty' }]
  }
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
