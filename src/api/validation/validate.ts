/** @module Validation of any object of the group: zod schema, then the rules of its kind. */

import { type Kind, kindDefinition } from '../kinds'
import type { ProviderSpecSchemas } from '../shared/provider-spec'
import type { Machine } from '../v1beta1/machine'
import type { MachineClass } from '../v1beta1/machine-class'
import type { MachineDeployment } from '../v1beta1/machine-deployment'
import type { MachineHealthCheck } from '../v1beta1/machine-health-check'
import type { MachineSet } from '../v1beta1/machine-set'
import { validateDisruptionBudgets } from './disruption-rules'
import { checkSchema, type FieldError } from './field-errors'
import { validateHealthCheck } from './health-check-rules'
import { validateMachineSpec, validateProviderSpec } from './machine-spec'
import { validateSelectorMatchesTemplate, validateSelectorUnchanged } from './set-rules'

/** What validation needs from outside: each provider's own spec schema. */
export interface ValidationDeps {
  providerSchemas: ProviderSpecSchemas
}

/**
 * Validates a v1beta1 object of `kind` (and, on update, against `old`). Collects every error with
 * its field path; never throws. Kind rules run only when the schema accepts the object.
 */
export function validateObject(
  kind: Kind,
  object: unknown,
  old: unknown,
  deps: ValidationDeps,
): FieldError[] {
  const schema = kindDefinition(kind).schemas.v1beta1()
  const parsed = schema.safeParse(object)
  if (!parsed.success) return checkSchema(schema, object, '')
  const previous = old === undefined ? undefined : schema.safeParse(old)
  const oldValue = previous?.success ? previous.data : undefined
  switch (kind) {
    case 'Machine':
      return machineRules(parsed.data as Machine, oldValue as Machine | undefined, deps)
    case 'MachineSet':
    case 'MachineDeployment':
      return setRules(
        parsed.data as MachineSet | MachineDeployment,
        oldValue as MachineSet | undefined,
        deps,
      )
    case 'MachineHealthCheck':
      return validateHealthCheck(parsed.data as MachineHealthCheck)
    case 'MachineClass':
      return classRules(parsed.data as MachineClass, deps)
  }
}

function machineRules(
  machine: Machine,
  old: Machine | undefined,
  deps: ValidationDeps,
): FieldError[] {
  const errors = validateMachineSpec(machine.spec, 'spec', deps.providerSchemas)
  const previousId = old?.spec.providerID
  if (previousId !== undefined && machine.spec.providerID !== previousId) {
    errors.push({ path: 'spec.providerID', message: 'Forbidden: providerID is immutable once set' })
  }
  return errors
}

function setRules(
  set: MachineSet | MachineDeployment,
  old: MachineSet | MachineDeployment | undefined,
  deps: ValidationDeps,
): FieldError[] {
  const errors = [
    ...validateSelectorMatchesTemplate(set.spec),
    ...validateSelectorUnchanged(set.spec, old?.spec),
    ...validateMachineSpec(set.spec.template.spec, 'spec.template.spec', deps.providerSchemas),
  ]
  if (set.kind === 'MachineDeployment') {
    const deployment = set as MachineDeployment
    errors.push(...strategyRules(deployment))
    errors.push(...validateDisruptionBudgets(deployment.spec.disruption?.budgets))
  }
  return errors
}

function strategyRules(deployment: MachineDeployment): FieldError[] {
  const strategy = deployment.spec.strategy
  const rolling = strategy?.rollingUpdate
  if (strategy === undefined || rolling === undefined) return []
  if (strategy.type === 'OnDelete') {
    return [
      { path: 'spec.strategy.rollingUpdate', message: 'Forbidden: only with type RollingUpdate' },
    ]
  }
  const isZero = (value: number | string | undefined) => value === 0 || value === '0%'
  if (isZero(rolling.maxSurge) && isZero(rolling.maxUnavailable)) {
    return [
      {
        path: 'spec.strategy.rollingUpdate.maxUnavailable',
        message:
          'Invalid value: may not be 0 when maxSurge is 0 (the rollout could never progress)',
      },
    ]
  }
  return []
}

function classRules(machineClass: MachineClass, deps: ValidationDeps): FieldError[] {
  return validateProviderSpec(
    machineClass.spec.provider,
    machineClass.spec.providerSpec,
    'spec',
    deps.providerSchemas,
    {
      providerPath: 'spec.provider',
      valuePath: 'spec.providerSpec',
    },
  )
}
