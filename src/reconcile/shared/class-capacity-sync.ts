/**
 * @module Keeps a node group's capacity annotations in step with its MachineClass (see
 * class-capacity.ts): patch the annotations that differ from what the class knows.
 *
 * The class is not read on every run of the group (a MachineSet runs for each change of each of
 * its Machines): a class's change, its status learning the capacity included, wakes the groups
 * whose template names it and hands them the class (bus event mapping), and so does every sweep.
 * A MachineDeployment GETs it itself only when its own spec changed since its status last said so
 * (created, or its template now names another class), when no class may have been handed yet; a
 * MachineSet when its status has no record of the class its template names (template-class.ts).
 */

import { machineApiTypes } from '../../api/resource-types'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import type { KubeClient } from '../../kube/kube-client'
import type { KubeObject, ResourceType } from '../../kube/resource'
import { capacityAnnotationPatch, capacityAnnotations } from './class-capacity'
import { templateClassName } from './node-group-class'

/** A MachineSet or MachineDeployment: named, with a Machine template and an observedGeneration. */
interface NodeGroup extends KubeObject {
  metadata: {
    name: string
    namespace?: string
    generation?: number
    annotations?: Record<string, string>
  }
  status?: { observedGeneration?: number } | undefined
}

/**
 * Whether the group must read its class itself: its spec (template) changed since its status
 * last observed it, so no class change may have woken it for the class it now names. Pure.
 */
export function capacityReadDue(group: Pick<NodeGroup, 'metadata' | 'status'>): boolean {
  const observed = group.status?.observedGeneration
  return observed === undefined || observed !== group.metadata.generation
}

/**
 * Patches `group`'s capacity annotations from `handed` (the class its run was handed) or, when
 * none was handed and `readDue` (by default capacityReadDue), from the class it reads; else
 * leaves them as they are.
 */
export async function syncClassCapacity(
  kube: KubeClient,
  type: ResourceType,
  group: NodeGroup,
  handed: MachineClass | undefined,
  readDue = capacityReadDue(group),
): Promise<void> {
  const className = templateClassName(group)
  const namespace = group.metadata.namespace ?? ''
  let machineClass: MachineClass | undefined
  if (className) {
    if (!handed && !readDue) return
    machineClass =
      handed ??
      (await kube.get<MachineClass & KubeObject>(machineApiTypes.machineClass, {
        namespace,
        name: className,
      }))
  }
  const patch = capacityAnnotationPatch(
    group.metadata.annotations,
    capacityAnnotations(machineClass?.status),
  )
  if (patch) {
    await kube.mergePatch(
      type,
      { namespace, name: group.metadata.name },
      { metadata: { annotations: patch } },
    )
  }
}
