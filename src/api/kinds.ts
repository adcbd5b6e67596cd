/** @module The five kinds: names and the schema of each served version, looked up by kind. */
import type { z } from 'zod'
import { machineV1alpha1Schema } from './v1alpha1/machine'
import { machineClassV1alpha1Schema } from './v1alpha1/machine-class'
import { machineDeploymentV1alpha1Schema } from './v1alpha1/machine-deployment'
import { machineHealthCheckV1alpha1Schema } from './v1alpha1/machine-health-check'
import { machineSetV1alpha1Schema } from './v1alpha1/machine-set'
import { machineSchema } from './v1beta1/machine'
import { machineClassSchema } from './v1beta1/machine-class'
import { machineDeploymentSchema } from './v1beta1/machine-deployment'
import { machineHealthCheckSchema } from './v1beta1/machine-health-check'
import { machineSetSchema } from './v1beta1/machine-set'

/** Every kind of the API group. */
export const KINDS = [
  'Machine',
  'MachineSet',
  'MachineDeployment',
  'MachineHealthCheck',
  'MachineClass',
] as const

/** A kind of the API group. */
export type Kind = (typeof KINDS)[number]

/** Names of a kind as the apiserver and kubectl know them. */
export interface KindNames {
  kind: Kind
  plural: string
  singular: string
  shortNames: string[]
  listKind: string
}

/**
 * A kind's names and the zod schema of its whole object in each version, each built on its first
 * call (see lazy-schema.ts).
 */
export interface KindDefinition extends KindNames {
  schemas: { v1beta1: () => z.ZodObject; v1alpha1: () => z.ZodObject }
}

function define(
  kind: Kind,
  plural: string,
  shortNames: string[],
  schemas: KindDefinition['schemas'],
) {
  return {
    kind,
    plural,
    singular: kind.toLowerCase(),
    shortNames,
    listKind: `${kind}List`,
    schemas,
  }
}

/** The kinds, in the order documents and CRD files list them. */
export const KIND_DEFINITIONS: readonly KindDefinition[] = [
  define('Machine', 'machines', ['ma'], {
    v1beta1: machineSchema,
    v1alpha1: machineV1alpha1Schema,
  }),
  define('MachineSet', 'machinesets', ['ms'], {
    v1beta1: machineSetSchema,
    v1alpha1: machineSetV1alpha1Schema,
  }),
  define('MachineDeployment', 'machinedeployments', ['md'], {
    v1beta1: machineDeploymentSchema,
    v1alpha1: machineDeploymentV1alpha1Schema,
  }),
  define('MachineHealthCheck', 'machinehealthchecks', ['mhc', 'mhcs'], {
    v1beta1: machineHealthCheckSchema,
    v1alpha1: machineHealthCheckV1alpha1Schema,
  }),
  define('MachineClass', 'machineclasses', ['mc'], {
    v1beta1: machineClassSchema,
    v1alpha1: machineClassV1alpha1Schema,
  }),
]

/** True when `value` names one of the kinds. */
export function isKind(value: unknown): value is Kind {
  return typeof value === 'string' && (KINDS as readonly string[]).includes(value)
}

/** The definition of `kind`. */
export function kindDefinition(kind: Kind): KindDefinition {
  const found = KIND_DEFINITIONS.find((d) => d.kind === kind)
  if (found === undefined) throw new Error(`unknown kind ${kind}`)
  return found
}
