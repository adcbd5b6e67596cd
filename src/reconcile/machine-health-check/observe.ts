/**
 * @module Reads what one MachineHealthCheck decision needs, fresh: the Machines its selector
 * matches (page by page) and each linked Node by name. Its spec is parsed in spec.ts.
 */

import { type LabelSelector, selectorToString } from '../../api/shared/label-selector'
import type { KubeClient } from '../../kube/kube-client'
import { listPages } from '../../kube/paged-list'
import { coreTypes, type KubeObject, type ResourceType } from '../../kube/resource'
import type { ObservedCondition, Target, TargetMachine, TargetNode } from './target'

function time(value: unknown): string | undefined {
  if (value instanceof Date) return value.toISOString()
  return typeof value === 'string' ? value : undefined
}

function conditions(status: unknown): ObservedCondition[] {
  const list = (status as { conditions?: unknown } | undefined)?.conditions
  return Array.isArray(list) ? (list as ObservedCondition[]) : []
}

/** The fields of a Machine object that evaluation reads. */
export function toTargetMachine(obj: KubeObject): TargetMachine {
  const meta = obj.metadata ?? {}
  const status = (obj.status ?? {}) as Record<string, unknown>
  const owner = (meta.ownerReferences ?? []).find((r) => r.controller === true)
  const nodeRef = status.nodeRef as TargetMachine['nodeRef']
  return {
    name: meta.name ?? '',
    uid: meta.uid,
    creationTimestamp: time(meta.creationTimestamp),
    deletionTimestamp: time(meta.deletionTimestamp),
    annotations: meta.annotations ?? {},
    machineSetOwner: owner?.kind === 'MachineSet' ? owner.name : undefined,
    phase: status.phase as string | undefined,
    failureReason: status.failureReason as string | undefined,
    failureMessage: status.failureMessage as string | undefined,
    nodeRef: nodeRef?.name ? nodeRef : undefined,
    lastUpdated: time(status.lastUpdated),
    conditions: conditions(status),
  }
}

function toTargetNode(obj: KubeObject): TargetNode {
  return {
    name: obj.metadata?.name ?? '',
    uid: obj.metadata?.uid,
    conditions: conditions(obj.status),
  }
}

const nodeReadBatch = 16

/** A target with the raw Machine kept for writes (resourceVersion, apiVersion). */
export interface ObservedTarget extends Target {
  object: KubeObject
}

/** Lists the selected Machines and reads each linked Node. Missing Nodes stay undefined. */
export async function observeTargets(
  kube: KubeClient,
  machineType: ResourceType,
  where: { namespace: string; selector: LabelSelector },
): Promise<ObservedTarget[]> {
  const labelSelector = selectorToString(where.selector)
  const targets: ObservedTarget[] = []
  for await (const page of listPages(kube, machineType, {
    namespace: where.namespace,
    labelSelector,
  })) {
    for (const object of page.items) targets.push({ object, machine: toTargetMachine(object) })
  }
  // Nodes are read one by one by name: a health check covers a few Machines of one namespace,
  // while listing Nodes would read the whole cluster's.
  // In batches, so a large health check does not open hundreds of requests at once.
  for (let i = 0; i < targets.length; i += nodeReadBatch) {
    await Promise.all(
      targets.slice(i, i + nodeReadBatch).map(async (t) => {
        if (!t.machine.nodeRef || t.machine.deletionTimestamp) return
        const node = await kube.get(coreTypes.node, { name: t.machine.nodeRef.name })
        if (node) t.node = toTargetNode(node)
      }),
    )
  }
  return targets
}
