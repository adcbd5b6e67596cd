/**
 * @module Decides, per pod, what one drain pass does with it. Pure: the same pods and options
 * always give the same decisions. Rules follow `kubectl drain --ignore-daemonsets
 * --delete-emptydir-data --force` (k8s.io/kubectl/pkg/drain, filters.go), which is what a machine
 * being removed needs, plus the `machine-api.dev/drain` pod label; docs/drain.md sets them side by
 * side. As in kubectl, a finished pod (Succeeded or Failed, a Job's included) goes like any other:
 * it holds no running workload, the Eviction API deletes it without consulting its budget, and a
 * Node left with pods bound to it is not drained.
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

/** What a drain pass does with `pod` (first matching rule wins; docs/drain.md lists them). */
export function decidePod(pod: V1Pod, options: DrainFilterOptions): PodDrainDecision {
  const deletedAt = pod.metadata?.deletionTimestamp
  if (deletedAt) {
    const ageSeconds = (options.now.getTime() - new Date(deletedAt).getTime()) / 1000
    if (options.nodeUnreachable && ageSeconds > unreachableDeletionWaitSeconds) {
      return { action: 'skip', reason: 'deleted on an unreachable node' }
    }
    return { action: 'wait', reason: 'terminating' }
  }

  const phase = pod.status?.phase
  const finished = phase === 'Succeeded' || phase === 'Failed'
  if (pod.metadata?.annotations?.[mirrorAnnotation] !== undefined) {
    return { action: 'skip', reason: 'mirror pod' }
  }
  const controller = pod.metadata?.ownerReferences?.find((o) => o.controller)
  // A running DaemonSet pod would be recreated at once; a finished one goes, as in kubectl.
  if (controller?.kind === 'DaemonSet' && !finished) {
    return { action: 'skip', reason: 'DaemonSet pod' }
  }

  const label = pod.metadata?.labels?.[LABELS.drain]
  if (label === 'skip') return { action: 'skip', reason: `label ${LABELS.drain}=skip` }
  // Nothing runs in it any more: no data or work is lost, whatever its volumes or owner.
  if (finished) return { action: 'evict' }
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
