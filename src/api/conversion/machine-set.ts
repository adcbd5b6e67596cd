/** @module MachineSet v1alpha1 <-> v1beta1: the template converts like a Machine spec. */
import type { z } from 'zod'
import type { machineSetV1alpha1Schema } from '../v1alpha1/machine-set'
import type { machineSetSpecSchema, machineSetStatusSchema } from '../v1beta1/machine-set'
import { type ConversionData, compact, dataObject } from './conversion-data'
import { machineSpecToHub, machineSpecToV1alpha1 } from './machine'
import { type Lowered, nonEmpty, type SpokeConverter } from './spoke-converter'

type HubSpec = z.input<typeof machineSetSpecSchema>
type HubStatus = z.input<typeof machineSetStatusSchema>
type SpokeSpec = z.input<typeof machineSetV1alpha1Schema>['spec']
type SpokeStatus = NonNullable<z.input<typeof machineSetV1alpha1Schema>['status']>

type HubTemplate = HubSpec['template']
type SpokeTemplate = SpokeSpec['template']

// Admission converts objects before the schema has checked them: a template without a spec (or
// none at all) passes through unchanged, so the schema refuses it naming the field instead of
// the conversion failing with a 500.
function hasSpec(template: unknown): boolean {
  const spec = (template as { spec?: unknown } | undefined)?.spec
  return typeof spec === 'object' && spec !== null && !Array.isArray(spec)
}

/** A v1beta1 Machine template down to v1alpha1 (a malformed one passes through as is). */
export function templateToV1alpha1(template: HubTemplate): Lowered<SpokeTemplate> {
  if (!hasSpec(template)) return { value: template as unknown as SpokeTemplate, data: {} }
  const spec = machineSpecToV1alpha1(template.spec)
  return { value: compact({ metadata: template.metadata, spec: spec.value }), data: spec.data }
}

/** A v1alpha1 Machine template up to v1beta1 (a malformed one passes through as is). */
export function templateToHub(
  template: SpokeTemplate,
  data: ConversionData | undefined,
): HubTemplate {
  if (!hasSpec(template)) return template as unknown as HubTemplate
  return compact({ metadata: template.metadata, spec: machineSpecToHub(template.spec, data ?? {}) })
}

/** The replica counts of MachineSet and MachineDeployment status: the same in both versions. */
export function replicaCounts(status: {
  replicas?: number | undefined
  readyReplicas?: number | undefined
  availableReplicas?: number | undefined
  selector?: string | undefined
  observedGeneration?: number | undefined
}) {
  return {
    replicas: status.replicas,
    readyReplicas: status.readyReplicas,
    availableReplicas: status.availableReplicas,
    selector: status.selector,
    observedGeneration: status.observedGeneration,
  }
}

/** The MachineSet converter. */
export const machineSetConverter: SpokeConverter<HubSpec, HubStatus, SpokeSpec, SpokeStatus> = {
  kind: 'MachineSet',
  specDown: (spec) => {
    const template = templateToV1alpha1(spec.template)
    return {
      value: compact({
        replicas: spec.replicas,
        selector: spec.selector,
        template: template.value,
        deletePolicy: spec.deletePolicy,
        minReadySeconds: spec.minReadySeconds,
      }),
      data: { template: nonEmpty(template.data) },
    }
  },
  specUp: (spec, data) =>
    compact({
      replicas: spec.replicas,
      selector: spec.selector,
      template: templateToHub(spec.template, dataObject(data, 'template')),
      deletePolicy: spec.deletePolicy,
      minReadySeconds: spec.minReadySeconds,
    }),
  statusDown: (status) => ({
    value: compact({
      ...replicaCounts(status),
      fullyLabeledReplicas: status.fullyLabeledReplicas,
      errorReason: status.failureReason,
      errorMessage: status.failureMessage,
    }),
    data: { conditions: status.conditions },
  }),
  statusUp: (status, data) =>
    compact({
      ...replicaCounts(status),
      fullyLabeledReplicas: status.fullyLabeledReplicas,
      failureReason: status.errorReason,
      failureMessage: status.errorMessage,
      conditions: data.conditions as HubStatus['conditions'],
    }),
}
