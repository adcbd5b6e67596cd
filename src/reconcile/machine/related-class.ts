/**
 * @module The MachineClass a Machine reconcile reads, for a sweep to hand over from one listing of
 * the namespace's classes (src/bus/sweep.ts): the class spec.classRef names, for a Machine whose
 * instance exists (a recorded providerID), so its provider calls need no GET of the class.
 *
 * A listed class may be older than the stored one (edited since the sweep listed it). The calls
 * it serves act on an instance that exists, made from the spec it was created with, and the next
 * run woken by a watch event reads the class fresh. A Machine still to be created is handed none:
 * the spec an instance is launched from is always read fresh.
 */
import { machineApiTypes } from '../../api/resource-types'
import type { RelatedObjects } from '../../bus/related-pages'
import type { KubeObject } from '../../kube/resource'

/** The Machine's MachineClass, by spec.classRef, once its instance exists. */
export const machineRelatedClass: RelatedObjects = {
  type: machineApiTypes.machineClass,
  few: true,
  refsOf(machine: KubeObject) {
    const spec = (machine as { spec?: { classRef?: { name?: unknown }; providerID?: unknown } })
      .spec
    const name = spec?.classRef?.name
    if (typeof name !== 'string' || name === '' || !spec?.providerID) return []
    return [{ namespace: machine.metadata?.namespace, name }]
  },
}
