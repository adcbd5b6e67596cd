/**
 * @module The MachineClass a node group (MachineSet or MachineDeployment) reads: the one its
 * template's spec.classRef names. Declared as the group controllers' related objects, so the
 * runs a class's own change wakes (event mapping: the class maps to the groups whose template
 * names it) and the sweep's runs (one listing of the namespace's classes) are handed it and read
 * it without a GET; `handedClass` finds it among what a run was handed.
 */
import { machineApiTypes } from '../../api/resource-types'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import type { RelatedObjects } from '../../bus/related-pages'
import type { HeldObject } from '../../kube/read-once'
import type { KubeObject } from '../../kube/resource'

/** The class a node group's template names, or undefined when it has none. */
export function templateClassName(group: KubeObject): string | undefined {
  const spec = group.spec as { template?: { spec?: { classRef?: { name?: unknown } } } } | undefined
  const name = spec?.template?.spec?.classRef?.name
  return typeof name === 'string' && name !== '' ? name : undefined
}

/** The node group's MachineClass, by its template's spec.classRef. */
export const templateRelatedClass: RelatedObjects = {
  type: machineApiTypes.machineClass,
  few: true,
  refsOf(group: KubeObject) {
    const name = templateClassName(group)
    return name ? [{ namespace: group.metadata?.namespace, name }] : []
  },
}

/**
 * The MachineClass `group`'s template names, when the run was handed it (its watch event or a
 * sweep's listing); undefined otherwise. Pure.
 */
export function handedClass(
  group: KubeObject,
  related: readonly HeldObject[] | undefined,
): (MachineClass & KubeObject) | undefined {
  const name = templateClassName(group)
  if (!name) return undefined
  const held = related?.find(
    ({ type, obj }) =>
      type.kind === machineApiTypes.machineClass.kind &&
      obj.metadata?.name === name &&
      (obj.metadata?.namespace ?? '') === (group.metadata?.namespace ?? ''),
  )
  return held?.obj as (MachineClass & KubeObject) | undefined
}
