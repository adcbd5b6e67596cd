/**
 * @module metav1.LabelSelector: matching and the string form used by the scale subresource. The
 * schema is in label-selector-schema.ts, so what only matches selectors does not import zod.
 */
import type { z } from 'zod'
import type { labelSelectorSchema } from './label-selector-schema'

/** A metav1.LabelSelector. */
export type LabelSelector = z.infer<ReturnType<typeof labelSelectorSchema>>

/** True when the selector has no requirement at all (and so selects everything). */
export function isEmptySelector(selector: LabelSelector | undefined): boolean {
  return (
    selector === undefined ||
    (Object.keys(selector.matchLabels ?? {}).length === 0 &&
      (selector.matchExpressions ?? []).length === 0)
  )
}

/**
 * True when the selector requires a label to be present (a matchLabels entry, or an In or Exists
 * expression). One without (empty, or only NotIn and DoesNotExist) matches every object lacking
 * some label, ownerless Machines included: admission refuses it, the controllers never act on it.
 */
export function requiresLabel(selector: SelectorLike | undefined): boolean {
  if (selector === undefined) return false
  if (Object.keys(selector.matchLabels ?? {}).length > 0) return true
  return (selector.matchExpressions ?? []).some(
    (r) => r.operator === 'In' || r.operator === 'Exists',
  )
}

/**
 * A selector as found in any object, before validation: an operator may be anything. The zod
 * `LabelSelector` is one.
 */
export interface SelectorLike {
  matchLabels?: Record<string, string> | undefined
  matchExpressions?:
    | ReadonlyArray<{ key: string; operator: string; values?: readonly string[] | undefined }>
    | undefined
}

/**
 * Why apimachinery's `LabelSelectorAsSelector` would reject `selector`, or undefined when it is
 * valid: an unknown operator, `In`/`NotIn` without values, `Exists`/`DoesNotExist` with values.
 */
export function selectorError(selector: SelectorLike): string | undefined {
  for (const [i, req] of (selector.matchExpressions ?? []).entries()) {
    const count = req.values?.length ?? 0
    const at = `matchExpressions[${i}]`
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (count === 0) return `${at}: values must be non-empty for ${req.operator}`
        break
      case 'Exists':
      case 'DoesNotExist':
        if (count > 0) return `${at}: values must be empty for ${req.operator}`
        break
      default:
        return `${at}: "${req.operator}" is not a valid label selector operator`
    }
  }
  return undefined
}

/**
 * True when `labels` satisfy every requirement of `selector`, as apimachinery evaluates it: a
 * missing selector matches nothing, an empty one everything, and an invalid one (see
 * `selectorError`) nothing, because Kubernetes refuses to build it.
 */
export function selectorMatches(
  selector: SelectorLike | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  if (!selector || selectorError(selector) !== undefined) return false
  const have = labels ?? {}
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (!Object.hasOwn(have, key) || have[key] !== value) return false
  }
  for (const req of selector.matchExpressions ?? []) {
    const present = Object.hasOwn(have, req.key)
    const value = have[req.key] ?? ''
    const values = req.values ?? []
    if (req.operator === 'In' && !(present && values.includes(value))) return false
    if (req.operator === 'NotIn' && present && values.includes(value)) return false
    if (req.operator === 'Exists' && !present) return false
    if (req.operator === 'DoesNotExist' && present) return false
  }
  return true
}

/** The selector in the string form of `kubectl get -l` (status.selector for the scale subresource). */
export function selectorToString(selector: LabelSelector): string {
  const parts = Object.entries(selector.matchLabels ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`)
  for (const req of selector.matchExpressions ?? []) {
    const values = [...(req.values ?? [])].sort().join(',')
    if (req.operator === 'In') parts.push(`${req.key} in (${values})`)
    else if (req.operator === 'NotIn') parts.push(`${req.key} notin (${values})`)
    else if (req.operator === 'Exists') parts.push(req.key)
    else parts.push(`!${req.key}`)
  }
  return parts.join(',')
}
