/**
 * @module Parses a MachineHealthCheck's spec (defaults applied) into what evaluation and planning
 * read. The reconcile imports it on first use: it needs the API's zod schema, which nothing else
 * of a worker needs before it serves `/readyz`.
 */
import { ANNOTATIONS } from '../../api/group'
import { parseDurationMs } from '../../api/shared/duration'
import { type LabelSelector, requiresLabel } from '../../api/shared/label-selector'
import { machineHealthCheckSpecSchema } from '../../api/v1beta1/machine-health-check'
import { templateReferenceError } from '../../api/validation/remediation-template'
import { PermanentError } from '../../errors'
import type { KubeObject } from '../../kube/resource'
import type { RemediationMode, RemediationPolicy } from './plan'
import type { HealthCheckRules, UnhealthyConditionRule } from './target'

/** The parsed spec: evaluation rules, remediation policy and the selector. */
export interface HealthCheckSpec {
  selector: LabelSelector
  rules: HealthCheckRules
  policy: RemediationPolicy
}

function durationMs(value: string, path: string): number {
  const ms = parseDurationMs(value)
  if (ms === undefined)
    throw new PermanentError('InvalidSpec', `${path}: invalid duration ${value}`)
  return ms
}

function conditionRules(
  rules: ReadonlyArray<{ type: string; status: string; timeout: string }> | undefined,
  field: string,
): UnhealthyConditionRule[] {
  return (rules ?? []).map((c, i) => ({
    type: c.type,
    status: c.status,
    timeoutMs: durationMs(c.timeout, `${field}[${i}].timeout`),
  }))
}

/**
 * Parses `obj`'s spec. Throws PermanentError for a selector that requires no label (it would
 * select every Machine without one), a remediation template of a kind the health check must not
 * create (admission rejects both; this guards objects written around the webhook) or a spec the
 * schema rejects.
 */
export function parseHealthCheckSpec(obj: KubeObject): HealthCheckSpec {
  const parsed = machineHealthCheckSpecSchema().safeParse(obj.spec)
  if (!parsed.success) {
    throw new PermanentError('InvalidSpec', `spec is invalid: ${parsed.error.message}`)
  }
  const spec = parsed.data
  if (!requiresLabel(spec.selector)) {
    throw new PermanentError(
      'EmptySelector',
      'spec.selector requires no label and would select every Machine without one; refusing to act',
    )
  }
  const external = obj.metadata?.annotations?.[ANNOTATIONS.remediationStrategy] === 'external'
  const template = spec.remediation?.externalTemplateRef
  const templateError = template === undefined ? undefined : templateReferenceError(template)
  if (templateError !== undefined) {
    throw new PermanentError(
      'InvalidRemediationTemplate',
      `spec.remediation.externalTemplateRef.${templateError.field}: ${templateError.message}; refusing to create requests from it`,
    )
  }
  const mode: RemediationMode = template
    ? { type: 'external-template', template }
    : external
      ? { type: 'external-annotation' }
      : { type: 'delete' }
  return {
    selector: spec.selector,
    rules: {
      unhealthyConditions: conditionRules(spec.unhealthyConditions, 'spec.unhealthyConditions'),
      unhealthyMachineConditions: conditionRules(
        spec.unhealthyMachineConditions,
        'spec.unhealthyMachineConditions',
      ),
      nodeStartupTimeoutMs: durationMs(spec.nodeStartupTimeout, 'spec.nodeStartupTimeout'),
    },
    policy: { maxUnhealthy: spec.maxUnhealthy, maxInFlight: spec.remediation?.maxInFlight, mode },
  }
}
