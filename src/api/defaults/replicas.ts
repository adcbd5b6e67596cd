/** @module Replica defaulting for sets and deployments, aware of cluster-autoscaler bounds. */
import { ANNOTATIONS } from '../group'

/**
 * The replicas to use when a set or deployment leaves `spec.replicas` unset: within the
 * autoscaler's min/max annotations (keeping the old value when it fits, so GitOps tools can hand
 * replicas over to the autoscaler), else 1. Mirrors Cluster API's calculateMachineSetReplicas.
 */
export function defaultReplicas(
  annotations: Record<string, string> | undefined,
  oldReplicas: number | undefined,
): number {
  const min = parseCount(annotations?.[ANNOTATIONS.autoscalerMinSize])
  const max = parseCount(annotations?.[ANNOTATIONS.autoscalerMaxSize])
  if (min === undefined || max === undefined || min > max) return oldReplicas ?? 1
  if (oldReplicas === undefined || oldReplicas < min) return min
  if (oldReplicas > max) return max
  return oldReplicas
}

function parseCount(value: string | undefined): number | undefined {
  if (value === undefined || !/^[0-9]{1,6}$/.test(value)) return undefined
  return Number(value)
}
