/**
 * @module Decides, per pod, what one drain pass does with it. Pure: the same pods and options
 * always give the same decisions. Rules follow `kubectl drain` with `--ignore-daemonsets
 * --delete-emptydir-data --force`, which is what a machine being removed needs.
 */
import type { V1Pod } from '@kubernetes/client-node'
import { LABELS } from '../api/group'

const mirrorAnnotation = 'kubernetes.io/config.mirror'

export type PodDrainDecision =
  /** Evict it; `warning` says why a human may care (data loss, no controller to recreate it). */
  | { action: 'evict'; warning?: string }
  /** Leave it on the Node, the drain does not wait for it. */
  | { action: 'skip'; reason: string }
  /** Do not evict, but the drain is not complete while it exists. */
  | { action: 'wait'; reason: string }

export interface DrainFilterOptions {
  /** The Node is unreachable: its kubelet will not confirm deletions. */
  nodeUnreachable: boolean
  now: Date
}

/** Pods deleted longer ago than this on an unreachable Node are not waited for: nothing will finish them. */
export const unreachableDeletionWaitSeconds = 1

/** What a drain pass does with `pod` (first matching rule wins). */
export function decidePod(pod: V1Pod, options: DrainFilterOptions): PodDrainDecision {
  const phase = pod.status?.phase
  if (phase === 'Succeeded' || phase === 'Failed') return { action: 'skip', reason: 'finished' }

  const deletedAt = pod.metadata?.deletionTimestamp
  if (deletedAt) {
    const ageSeconds = (options.now.getTime() - new Date(deletedAt).getTime()) / 1000
    if (options.nodeUnreachable && ageSeconds > unreachableDeletionWaitSeconds) {
      return { action: 'skip', reason: 'deleted on an unreachable node' }
    }
    return { action: 'wait', reason: 'terminating' }
  }

  if (pod.metadata?.annotations?.[mirrorAnnotation] !== undefined) {
    return { action: 'skip', reason: 'mirror pod' }
  }
  const controller = pod.metadata?.ownerReferences?.find((o) => o.controller)
  if (controller?.kind === 'DaemonSet') return { action: 'skip', reason: 'DaemonSet pod' }

  const label = pod.metadata?.labels?.[LABELS.drain]
  if (label === 'skip') return { action: 'skip', reason: `label ${LABELS.drain}=skip` }
  if (label === 'wait-completed') {
    return { action: 'wait', reason: `label ${LABELS.drain}=wait-completed` }
  }

  const warnings: string[] = []
  if (pod.spec?.volumes?.some((v) => v.emptyDir)) warnings.push('emptyDir data is lost')
  if (!controller) warnings.push('no controller will recreate it')
  return warnings.length > 0
    ? { action: 'evict', warning: warnings.join('; ') }
    : { action: 'evict' }
}

/** `namespace/name` of a pod, the form used in messages and Events. */
export function podKey(pod: V1Pod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`
}
