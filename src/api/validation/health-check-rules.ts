/**
 * @module Rules of a (zod-valid) MachineHealthCheck: a selector that picks Machines by a label,
 * timeouts the controllers can schedule, one rule per condition type and status (Node and Machine
 * conditions alike; never the health check's own HealthCheckSucceeded), and an external
 * remediation template of an allowed kind.
 */
import { healthCheckSucceededCondition } from '../condition-types'
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
  errors.push(...validateConditionRules(spec.unhealthyConditions, 'spec.unhealthyConditions'))
  const machineRules = spec.unhealthyMachineConditions
  errors.push(...validateConditionRules(machineRules, 'spec.unhealthyMachineConditions'))
  machineRules?.forEach((condition, index) => {
    // The health check's own verdict: selecting on it would keep a remediated verdict alive.
    if (condition.type === healthCheckSucceededCondition) {
      errors.push({
        path: `spec.unhealthyMachineConditions[${index}].type`,
        message: `Invalid value: ${JSON.stringify(condition.type)} is the condition this health check sets`,
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

/** Timeouts the controller can schedule and one rule per condition type and status. */
function validateConditionRules(
  rules: ReadonlyArray<{ type: string; status: string; timeout: string }> | undefined,
  field: string,
): FieldError[] {
  const errors: FieldError[] = []
  const seen = new Map<string, number>()
  rules?.forEach((condition, index) => {
    const path = `${field}[${index}]`
    errors.push(...validateDuration(condition.timeout, `${path}.timeout`))
    // Two rules for one type and status would race on which timeout applies.
    const key = `${condition.type}\u0000${condition.status}`
    const first = seen.get(key)
    if (first === undefined) seen.set(key, index)
    else {
      errors.push({
        path,
        message: `Duplicate value: type ${JSON.stringify(condition.type)} with status ${condition.status} is already ${field}[${first}]`,
      })
    }
  })
  return errors
}
