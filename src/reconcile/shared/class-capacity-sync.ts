/**
 * @module Keeps a node group's capacity annotations in step with its MachineClass (see
 * class-capacity.ts): read the class its template references, patch the annotations that differ.
 */

import { machineApiTypes } from '../../api/resource-types'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import type { KubeClient } from '../../kube/kube-client'
import type { KubeObject, ResourceType } from '../../kube/resource'
import { capacityAnnotationPatch, capacityAnnotations } from './class-capacity'

/** Look again this soon while the class's provider has not answered yet. */
export const classCapacityPollMs = 5_000
/**
 * ...but only while the class is this young: a class whose capacity stays undecided has no
 * MachineClass controller running, and the sweep is frequent enough for late answers.
 */
export const classCapacityPollWindowMs = 120_000

/** A MachineSet or MachineDeployment: named, with a Machine template. */
interface NodeGroup {
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> }
  spec: { template: { spec?: { classRef?: { name: string } | undefined } } }
}

/**
 * Patches `group`'s capacity annotations from its class. Returns a delay to look again when a
 * young class's capacity is not decided yet, else undefined.
 */
export async function syncClassCapacity(
  kube: KubeClient,
  type: ResourceType,
  group: NodeGroup,
  now: Date,
): Promise<number | undefined> {
  const className = group.spec.template.spec?.classRef?.name
  const namespace = group.metadata.namespace ?? ''
  const machineClass = className
    ? await kube.get<MachineClass & KubeObject>(machineApiTypes.machineClass, {
        namespace,
        name: className,
      })
    : undefined
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
  if (!machineClass) return undefined
  const decided = machineClass.status?.conditions?.some(
    (c) => c.type === 'CapacityKnown' && c.status !== 'Unknown',
  )
  const created = Date.parse(String(machineClass.metadata.creationTimestamp ?? ''))
  const young = now.getTime() - created < classCapacityPollWindowMs
  return !decided && young ? classCapacityPollMs : undefined
}
