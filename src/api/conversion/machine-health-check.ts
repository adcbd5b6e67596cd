/** @module MachineHealthCheck v1alpha1 <-> v1beta1: remediationTemplate is remediation.externalTemplateRef. */
import type { z } from 'zod'
import type { machineHealthCheckV1alpha1Schema } from '../v1alpha1/machine-health-check'
import type {
  machineHealthCheckSpecSchema,
  machineHealthCheckStatusSchema,
} from '../v1beta1/machine-health-check'
import { compact } from './conversion-data'
import type { SpokeConverter } from './spoke-converter'

type HubSpec = z.input<typeof machineHealthCheckSpecSchema>
type HubStatus = z.input<typeof machineHealthCheckStatusSchema>
type SpokeSpec = z.input<typeof machineHealthCheckV1alpha1Schema>['spec']
type SpokeStatus = NonNullable<z.input<typeof machineHealthCheckV1alpha1Schema>['status']>

/** The MachineHealthCheck converter. */
export const machineHealthCheckConverter: SpokeConverter<
  HubSpec,
  HubStatus,
  SpokeSpec,
  SpokeStatus
> = {
  kind: 'MachineHealthCheck',
  specDown: (spec) => ({
    value: compact({
      selector: spec.selector,
      unhealthyConditions: spec.unhealthyConditions,
      nodeStartupTimeout: spec.nodeStartupTimeout,
      maxUnhealthy: spec.maxUnhealthy,
      remediationTemplate: spec.remediation?.externalTemplateRef,
    }),
    // An empty remediation block has no v1alpha1 form; remember that it was there.
    data: {
      remediation:
        spec.remediation !== undefined && spec.remediation.externalTemplateRef === undefined
          ? 'empty'
          : undefined,
    },
  }),
  specUp: (spec, data) =>
    compact({
      selector: spec.selector,
      unhealthyConditions: spec.unhealthyConditions,
      nodeStartupTimeout: spec.nodeStartupTimeout,
      maxUnhealthy: spec.maxUnhealthy,
      remediation:
        spec.remediationTemplate !== undefined
          ? { externalTemplateRef: spec.remediationTemplate }
          : data.remediation === 'empty'
            ? {}
            : undefined,
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
      conditions: data.conditions as HubStatus['conditions'],
    }),
}
