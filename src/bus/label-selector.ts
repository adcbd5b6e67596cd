/**
 * @module Evaluates a metav1.LabelSelector against labels, so a Machine change finds the
 * MachineHealthChecks that select it without asking the apiserver per check. Pure.
 * https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#resources-that-support-set-based-requirements
 */

/** `metav1.LabelSelector`. */
export interface LabelSelector {
  matchLabels?: Record<string, string>
  matchExpressions?: Array<{
    key: string
    operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string
    values?: string[]
  }>
}

/**
 * True when `labels` satisfy `selector`. An empty selector matches everything and a missing one
 * matches nothing, as in the apps/v1 controllers; an unknown operator matches nothing.
 */
export function selectorMatches(
  selector: LabelSelector | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  if (!selector) return false
  const have = labels ?? {}
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (have[key] !== value) return false
  }
  for (const expr of selector.matchExpressions ?? []) {
    const present = Object.hasOwn(have, expr.key)
    const value = have[expr.key]
    const values = expr.values ?? []
    switch (expr.operator) {
      case 'In':
        if (!present || value === undefined || !values.includes(value)) return false
        break
      case 'NotIn':
        if (present && value !== undefined && values.includes(value)) return false
        break
      case 'Exists':
        if (!present) return false
        break
      case 'DoesNotExist':
        if (present) return false
        break
      default:
        return false
    }
  }
  return true
}
