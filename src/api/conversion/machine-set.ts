/**
 * @module MachineSet v1alpha1 <-> v1beta1: the template converts like a Machine spec; `interruption`
 * is hub-only.
 */
import type { machineSetV1alpha1Schema } from '../v1alpha1/machine-set'
import type { machineSetSchema } from '../v1beta1/machine-set'
import { type ConversionData, compact, dataObject } from './conversion-data'
import { machineSpecToHub, machineSpecToV1alpha1 } from './machine'
import { type ConverterOf, type Lowered, nonEmpty, type Versions } from './spoke-converter'

type Types = Versions<
  ReturnType<typeof machineSetSchema>,
  ReturnType<typeof machineSetV1alpha1Schema>
>

type HubTemplate = Types['hubSpec']['template']
type SpokeTemplate = Types['spokeSpec']['template']

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

/** What MachineSet and MachineDeployment specs share, in both versions. */
type ReplicatedHubSpec = Pick<
  Types['hubSpec'],
  'replicas' | 'selector' | 'template' | 'minReadySeconds'
>
type ReplicatedSpokeSpec = Pick<
  Types['spokeSpec'],
  'replicas' | 'selector' | 'template' | 'minReadySeconds'
>

/** replicas, selector, template and minReadySeconds down to v1alpha1, with the template's hub-only data. */
export function replicatedSpecDown(spec: ReplicatedHubSpec): Lowered<ReplicatedSpokeSpec> {
  const template = templateToV1alpha1(spec.template)
  return {
    value: {
      replicas: spec.replicas,
      selector: spec.selector,
      template: template.value,
      minReadySeconds: spec.minReadySeconds,
    },
    data: { template: nonEmpty(template.data) },
  }
}

/** replicas, selector, template and minReadySeconds up to v1beta1. */
export function replicatedSpecUp(
  spec: ReplicatedSpokeSpec,
  data: ConversionData,
): ReplicatedHubSpec {
  return {
    replicas: spec.replicas,
    selector: spec.selector,
    template: templateToHub(spec.template, dataObject(data, 'template')),
    minReadySeconds: spec.minReadySeconds,
  }
}

/** The MachineSet converter. */
export const machineSetConverter: ConverterOf<Types> = {
  kind: 'MachineSet',
  specDown: (spec) => {
    const replicated = replicatedSpecDown(spec)
    return {
      value: compact({ ...replicated.value, deletePolicy: spec.deletePolicy }),
      data: { ...replicated.data, interruption: spec.interruption },
    }
  },
  specUp: (spec, data) =>
    compact({
      ...replicatedSpecUp(spec, data),
      deletePolicy: spec.deletePolicy,
      interruption: data.interruption as Types['hubSpec']['interruption'],
    }),
  statusDown: (status) => ({
    value: compact({
      ...replicaCounts(status),
      fullyLabeledReplicas: status.fullyLabeledReplicas,
      errorReason: status.failureReason,
      errorMessage: status.failureMessage,
    }),
    data: {
      conditions: status.conditions,
      replacement: status.replacement,
      templateClass: status.templateClass,
      nextMachineIndex: status.nextMachineIndex,
      nameClaims: status.nameClaims,
      zoneSpread: status.zoneSpread,
    },
  }),
  statusUp: (status, data) =>
    compact({
      ...replicaCounts(status),
      fullyLabeledReplicas: status.fullyLabeledReplicas,
      failureReason: status.errorReason,
      failureMessage: status.errorMessage,
      conditions: data.conditions as Types['hubStatus']['conditions'],
      replacement: data.replacement as Types['hubStatus']['replacement'],
      templateClass: data.templateClass as Types['hubStatus']['templateClass'],
      nextMachineIndex: data.nextMachineIndex as Types['hubStatus']['nextMachineIndex'],
      nameClaims: data.nameClaims as Types['hubStatus']['nameClaims'],
      zoneSpread: data.zoneSpread as Types['hubStatus']['zoneSpread'],
    }),
}
