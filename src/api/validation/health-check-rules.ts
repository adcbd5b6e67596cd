/**
 * @module Rules of a (zod-valid) MachineHealthCheck: a selector that picks Machines by a label,
 * timeouts the controllers can schedule, one rule per condition type and status, and an external
 * remediation template of an allowed kind.
 */
import { parseDurationMs } from '../shared/duration'
import type { MachineHealthCheck } from '../v1beta1/machine-health-check'
import { validateDuration } from './duration-rules'
import type { FieldError } from './field-errors'
import { templateReferenceError } from './remediation-template'
import { validateSelector } from './selector-rules'

// Below 30s a Node has not had time to register; Cluster API uses the same floor.
const MIN_NODE_STARTUP_MS = 30_000

/** Every rule violation of `check`, with field paths. */
export function validateHealthCheck(check: MachineHealthCheck): FieldError[] {
  const spec = check.spec
  const errors = validateSelector(spec.selector, 'spec.selector')
  const startup = parseDurationMs(spec.nodeStartupTimeout) ?? 0
  if (startup !== 0 && startup < MIN_NODE_STARTUP_MS) {
    errors.push({
      path: 'spec.nodeStartupTimeout',
      message: 'Invalid value: must be 0 (disabled) or at least 30s',
    })
  }
  errors.push(...validateDuration(spec.nodeStartupTimeout, 'spec.nodeStartupTimeout'))
  const seen = new Map<string, number>()
  spec.unhealthyConditions?.forEach((condition, index) => {
    const path = `spec.unhealthyConditions[${index}]`
    errors.push(...validateDuration(condition.timeout, `${path}.timeout`))
    // Two rules for one type and status would race on which timeout applies.
    const key = `${condition.type}\u0000${condition.status}`
    const first = seen.get(key)
    if (first === undefined) seen.set(key, index)
    else {
      errors.push({
        path,
        message: `Duplicate value: type ${JSON.stringify(condition.type)} with status ${condition.status} is already spec.unhealthyConditions[${first}]`,
      })
    }
  })
  const template = spec.remediation?.externalTemplateRef
  const templateError = template === undefined ? undefined : templateReferenceError(template)
  if (templateError !== undefined) {
    errors.push({
      path: `spec.remediation.externalTemplateRef.${templateError.field}`,
      message: `Invalid value: ${templateError.message}`,
    })
  }
  return errors
}
