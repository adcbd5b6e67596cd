/**
 * @module Reads what one MachineHealthCheck decision needs, fresh: its spec (parsed, defaults
 * applied), the Machines its selector matches (page by page) and each linked Node by name.
 */

import { ANNOTATIONS } from '../../api/group'
import { parseDurationMs } from '../../api/shared/duration'
import {
  isEmptySelector,
  type LabelSelector,
  selectorToString,
} from '../../api/shared/label-selector'
import { machineHealthCheckSpecSchema } from '../../api/v1beta1/machine-health-check'
import { PermanentError } from '../../errors'
import type { KubeClient } from '../../kube/kube-client'
import { listPages } from '../../kube/paged-list'
import { coreTypes, type KubeObject, type ResourceType } from '../../kube/resource'
import type { RemediationMode, RemediationPolicy } from './plan'
import type {
  HealthCheckRules,
  ObservedCondition,
  Target,
  TargetMachine,
  TargetNode,
} from './target'

/** The parsed spec: evaluation rules, remediation policy and the selector. */
export interface HealthCheckSpec {
  selector: LabelSelector
  rules: HealthCheckRules
  policy: RemediationPolicy
}

function durationMs(value: string, path: string): number {
  const ms = parseDurationMs(value)
  if (ms === undefined)
    throw new PermanentError('InvalidSpec', `${path}: invalid duration ${value}`)
  return ms
}

/**
 * Parses `obj`'s spec. Throws PermanentError for an empty selector (it would select every Machine
 * in the namespace; admission rejects it, this guards objects written around the webhook) or a
 * spec the schema rejects.
 */
export function parseHealthCheckSpec(obj: KubeObject): HealthCheckSpec {
  const parsed = machineHealthCheckSpecSchema().safeParse(obj.spec)
  if (!parsed.success) {
    throw new PermanentError('InvalidSpec', `spec is invalid: ${parsed.error.message}`)
  }
  const spec = parsed.data
  if (isEmptySelector(spec.selector)) {
    throw new PermanentError(
      'EmptySelector',
      'spec.selector is empty and would select every Machine; refusing to act',
    )
  }
  const external = obj.metadata?.annotations?.[ANNOTATIONS.remediationStrategy] === 'external'
  const template = spec.remediation?.externalTemplateRef
  const mode: RemediationMode = template
    ? { type: 'external-template', template }
    : external
      ? { type: 'external-annotation' }
      : { type: 'delete' }
  return {
    selector: spec.selector,
    rules: {
      unhealthyConditions: (spec.unhealthyConditions ?? []).map((c, i) => ({
        type: c.type,
        status: c.status,
        timeoutMs: durationMs(c.timeout, `spec.unhealthyConditions[${i}].timeout`),
      })),
      nodeStartupTimeoutMs: durationMs(spec.nodeStartupTimeout, 'spec.nodeStartupTimeout'),
    },
    policy: { maxUnhealthy: spec.maxUnhealthy, maxInFlight: spec.remediation?.maxInFlight, mode },
  }
}

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
