/**
 * @module MachineClass v1alpha1 <-> v1beta1: secretRef is credentialsSecretRef; userDataSecretRef,
 * unavailableOfferingTTL, status conditions, capacity, nodeInfo, offeredZones, zoneInstanceTypes,
 * zones and unavailableOfferings are hub-only.
 */
import type { machineClassV1alpha1Schema } from '../v1alpha1/machine-class'
import type { machineClassSchema } from '../v1beta1/machine-class'
import { compact } from './conversion-data'
import type { ConverterOf, Versions } from './spoke-converter'

type Types = Versions<
  ReturnType<typeof machineClassSchema>,
  ReturnType<typeof machineClassV1alpha1Schema>
>

/** The MachineClass converter: fields not named here are the same in both versions. */
export const machineClassConverter: ConverterOf<Types> = {
  kind: 'MachineClass',
  specDown: ({ credentialsSecretRef, userDataSecretRef, unavailableOfferingTTL, ...same }) => ({
    value: compact({ ...same, secretRef: credentialsSecretRef }),
    data: { userDataSecretRef, unavailableOfferingTTL },
  }),
  specUp: ({ secretRef, ...same }, data) =>
    compact({
      ...same,
      credentialsSecretRef: secretRef,
      userDataSecretRef: data.userDataSecretRef as Types['hubSpec']['userDataSecretRef'],
      unavailableOfferingTTL: data.unavailableOfferingTTL as string | undefined,
    }),
  statusDown: ({
    conditions,
    capacity,
    nodeInfo,
    offeredZones,
    zoneInstanceTypes,
    zones,
    unavailableOfferings,
    ...same
  }) => ({
    value: compact(same),
    data: {
      conditions,
      capacity,
      nodeInfo,
      offeredZones,
      zoneInstanceTypes,
      zones,
      unavailableOfferings,
    },
  }),
  statusUp: (status, data) =>
    compact({
      ...status,
      conditions: data.conditions as Types['hubStatus']['conditions'],
      capacity: data.capacity as Types['hubStatus']['capacity'],
      nodeInfo: data.nodeInfo as Types['hubStatus']['nodeInfo'],
      offeredZones: data.offeredZones as Types['hubStatus']['offeredZones'],
      zoneInstanceTypes: data.zoneInstanceTypes as Types['hubStatus']['zoneInstanceTypes'],
      zones: data.zones as Types['hubStatus']['zones'],
      unavailableOfferings: data.unavailableOfferings as Types['hubStatus']['unavailableOfferings'],
    }),
}
