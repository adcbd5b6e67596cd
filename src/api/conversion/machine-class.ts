/**
 * @module MachineClass v1alpha1 <-> v1beta1: secretRef is credentialsSecretRef; userDataSecretRef,
 * status conditions, capacity and nodeInfo are hub-only.
 */
import type { z } from 'zod'
import type { machineClassV1alpha1Schema } from '../v1alpha1/machine-class'
import type { machineClassSpecSchema, machineClassStatusSchema } from '../v1beta1/machine-class'
import { compact } from './conversion-data'
import type { SpokeConverter } from './spoke-converter'

type HubSpec = z.input<typeof machineClassSpecSchema>
type HubStatus = z.input<typeof machineClassStatusSchema>
type SpokeSpec = z.input<typeof machineClassV1alpha1Schema>['spec']
type SpokeStatus = NonNullable<z.input<typeof machineClassV1alpha1Schema>['status']>

/** The MachineClass converter. */
export const machineClassConverter: SpokeConverter<HubSpec, HubStatus, SpokeSpec, SpokeStatus> = {
  kind: 'MachineClass',
  specDown: (spec) => ({
    value: compact({
      provider: spec.provider,
      providerSpec: spec.providerSpec,
      secretRef: spec.credentialsSecretRef,
    }),
    data: { userDataSecretRef: spec.userDataSecretRef },
  }),
  specUp: (spec, data) =>
    compact({
      provider: spec.provider,
      providerSpec: spec.providerSpec,
      credentialsSecretRef: spec.secretRef,
      userDataSecretRef: data.userDataSecretRef as HubSpec['userDataSecretRef'],
    }),
  statusDown: (status) => ({
    value: compact({ observedGeneration: status.observedGeneration }),
    data: { conditions: status.conditions, capacity: status.capacity, nodeInfo: status.nodeInfo },
  }),
  statusUp: (status, data) =>
    compact({
      observedGeneration: status.observedGeneration,
      conditions: data.conditions as HubStatus['conditions'],
      capacity: data.capacity as HubStatus['capacity'],
      nodeInfo: data.nodeInfo as HubStatus['nodeInfo'],
    }),
}
