/** @module What drain needs from the apiserver (kube-drain-client.ts implements it). */
import type { V1Pod } from '@kubernetes/client-node'

/** The outcome of one Eviction API call, classified at the boundary. */
export type EvictionOutcome =
  | { type: 'evicted' }
  /** The pod is already gone. */
  | { type: 'gone' }
  /** 429: a PodDisruptionBudget does not allow it now; `message` names the budget. */
  | { type: 'blocked'; message: string }
  | { type: 'failed'; message: string }

export interface DrainClient {
  /** Sets `spec.unschedulable` on the Node (a no-op when already set). */
  cordon(nodeName: string): Promise<void>
  /** Every pod bound to the Node (all namespaces). */
  listPodsOnNode(nodeName: string): Promise<V1Pod[]>
  /** Evicts through the Eviction subresource, so PodDisruptionBudgets are respected. */
  evict(
    pod: { namespace: string; name: string },
    options: { gracePeriodSeconds?: number },
  ): Promise<EvictionOutcome>
}
