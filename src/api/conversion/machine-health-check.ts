/** @module MachineHealthCheck v1alpha1 <-> v1beta1: remediationTemplate is remediation.externalTemplateRef;
 * unhealthyMachineConditions (v1beta1 only) travels in the conversion data. */
import type { machineHealthCheckV1alpha1Schema } from '../v1alpha1/machine-health-check'
import type { machineHealthCheckSchema } from '../v1beta1/machine-health-check'
import { type ConversionData, compact, isRecord } from './conversion-data'
import type { ConverterOf, Versions } from './spoke-converter'

type Types = Versions<
  ReturnType<typeof machineHealthCheckSchema>,
  ReturnType<typeof machineHealthCheckV1alpha1Schema>
>

/** The MachineHealthCheck converter. */
export const machineHealthCheckConverter: ConverterOf<Types> = {
  kind: 'MachineHealthCheck',
  specDown: (spec) => {
    // A remediation that is not an object (only ever sent straight to the webhook) has no form.
    const remediation = isRecord(spec.remediation) ? spec.remediation : undefined
    return {
      value: compact({
        selector: spec.selector,
        unhealthyConditions: spec.unhealthyConditions,
        nodeStartupTimeout: spec.nodeStartupTimeout,
        maxUnhealthy: spec.maxUnhealthy,
        remediationTemplate: remediation?.externalTemplateRef,
      }),
      // maxInFlight, an empty remediation block and the Machine conditions have no v1alpha1
      // form; remember them.
      data: {
        unhealthyMachineConditions: spec.unhealthyMachineConditions,
        remediation:
          remediation !== undefined &&
          remediation.externalTemplateRef === undefined &&
          remediation.maxInFlight === undefined
            ? 'empty'
            : undefined,
        maxInFlight: remediation?.maxInFlight,
      },
    }
  },
  specUp: (spec, data) =>
    compact({
      selector: spec.selector,
      unhealthyConditions: spec.unhealthyConditions,
      unhealthyMachineConditions:
        data.unhealthyMachineConditions as Types['hubSpec']['unhealthyMachineConditions'],
      nodeStartupTimeout: spec.nodeStartupTimeout,
      maxUnhealthy: spec.maxUnhealthy,
      remediation: remediationUp(spec.remediationTemplate, data),
    }),
  statusDown: (status) => ({
    value: compact({
      expectedMachines: status.expectedMachines,
      currentHealthy: status.currentHealthy,
      remediationsAllowed: status.remediationsAllowed,
    }),
    data: {
      targets: status.targets,
      observedGeneration: status.observedGeneration,
      conditions: status.conditions,
    },
  }),
  statusUp: (status, data) =>
    compact({
      expectedMachines: status.expectedMachines,
      currentHealthy: status.currentHealthy,
      remediationsAllowed: status.remediationsAllowed,
      targets: data.targets as string[] | undefined,
      observedGeneration: data.observedGeneration as number | undefined,
      conditions: data.conditions as Types['hubStatus']['conditions'],
    }),
}

function remediationUp(
  template: Types['spokeSpec']['remediationTemplate'],
  data: ConversionData,
): Types['hubSpec']['remediation'] {
  const maxInFlight = data.maxInFlight as number | string | undefined
  if (template === undefined && maxInFlight === undefined) {
    return data.remediation === 'empty' ? {} : undefined
  }
  return compact({ externalTemplateRef: template, maxInFlight })
}
