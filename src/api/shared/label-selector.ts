/** @module metav1.LabelSelector: schema, matching and the string form used by the scale subresource. */
import { z } from 'zod'

/** A label selector requirement (key, operator, values). */
export const labelSelectorRequirementSchema = z
  .object({
    key: z.string().min(1).max(317).describe('The label key the selector applies to.'),
    operator: z
      .enum(['In', 'NotIn', 'Exists', 'DoesNotExist'])
      .describe("The key's relationship to the values: In, NotIn, Exists or DoesNotExist."),
    values: z
      .array(z.string().max(63).describe('A label value.'))
      .max(256)
      .optional()
      .describe('Values for In and NotIn (non-empty); must be empty for Exists and DoesNotExist.'),
  })
  .describe('A label selector requirement.')

/** A metav1.LabelSelector. */
export const labelSelectorSchema = z
  .object({
    matchLabels: z
      .record(z.string(), z.string().describe('A label value.'))
      .optional()
      .describe('Labels that must all be present with these values.'),
    matchExpressions: z
      .array(labelSelectorRequirementSchema)
      .max(64)
      .optional()
      .describe('Requirements that must all hold.'),
  })
  .describe('A label query over Machines; the requirements are ANDed.')

/** A metav1.LabelSelector. */
export type LabelSelector = z.infer<typeof labelSelectorSchema>

/** True when the selector has no requirement at all (and so selects everything). */
export function isEmptySelector(selector: LabelSelector | undefined): boolean {
  return (
    selector === undefined ||
    (Object.keys(selector.matchLabels ?? {}).length === 0 &&
      (selector.matchExpressions ?? []).length === 0)
  )
}

/** True when `labels` satisfy every requirement of `selector` (Kubernetes semantics). */
export function selectorMatches(selector: LabelSelector, labels: Record<string, string>): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (labels[key] !== value) return false
  }
  for (const req of selector.matchExpressions ?? []) {
    const present = Object.hasOwn(labels, req.key)
    const value = labels[req.key]
    const values = req.values ?? []
    switch (req.operator) {
      case 'In':
        if (!present || !values.includes(value ?? '')) return false
        break
      case 'NotIn':
        if (present && values.includes(value ?? '')) return false
        break
      case 'Exists':
        if (!present) return false
        break
      case 'DoesNotExist':
        if (present) return false
        break
    }
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
