/**
 * @module Records a permanent failure on the object: a `Stalled` condition (the kstatus convention
 * for "cannot progress without a human") plus a Warning Event. The condition's observedGeneration
 * lets the next reconcile skip the object until its spec (generation) changes.
 * https://github.com/kubernetes-sigs/cli-utils/blob/master/pkg/kstatus/README.md
 */

import { errorMessage } from '../../errors'
import { hasKubeReason } from '../../kube/errors'
import type { KubeClient } from '../../kube/kube-client'
import type { ObjectKey } from '../../kube/object-key'
import type { KubeObject, ResourceType } from '../../kube/resource'
import type { Logger } from '../../observability/logger'
import { type LooseCondition, setCondition } from '../shared/conditions'
import { recordEvent } from '../shared/events'

/** The condition type the runtime owns. Kinds' status code must leave it alone. */
export const stalledCondition = 'Stalled'

function conditionsOf(obj: KubeObject): LooseCondition[] {
  const status = obj.status as { conditions?: LooseCondition[] } | undefined
  return Array.isArray(status?.conditions) ? status.conditions : []
}

/**
 * True when the object carries Stalled=True for its current generation: a reconcile should return
 * without acting, because only a spec change can fix what failed.
 */
export function isStalled(obj: KubeObject): boolean {
  const condition = conditionsOf(obj).find((c) => c.type === stalledCondition)
  return (
    condition?.status === 'True' &&
    condition.observedGeneration !== undefined &&
    condition.observedGeneration === obj.metadata?.generation
  )
}

/** `conditions` with Stalled=True for `generation` in place of any previous Stalled. Pure. */
export function withStalled(
  conditions: LooseCondition[],
  failure: { reason: string; message: string; generation: number | undefined; now: Date },
): LooseCondition[] {
  const stalled = {
    type: stalledCondition,
    status: 'True' as const,
    reason: failure.reason,
    message: failure.message.slice(0, 1024),
  }
  const stamp = { time: failure.now.toISOString(), generation: failure.generation }
  return setCondition(conditions, stalled, stamp)
}

/**
 * Writes Stalled=True and a Warning Event for `key`. Best effort: the object may be gone or have
 * no status subresource; failures are logged, never thrown, since the caller is already failing.
 */
export async function recordStalled(
  deps: { kube: KubeClient; log: Logger; fieldManager: string; now: Date },
  target: { resource: ResourceType; key: ObjectKey },
  failure: { reason: string; message: string },
): Promise<void> {
  const { kube, log } = deps
  const ref = { namespace: target.key.namespace, name: target.key.name }
  try {
    const obj = await kube.get(target.resource, ref)
    if (!obj) return
    const patch = {
      // The resourceVersion precondition keeps us from overwriting conditions written meanwhile.
      metadata: { resourceVersion: obj.metadata?.resourceVersion },
      status: {
        conditions: withStalled(conditionsOf(obj), {
          ...failure,
          generation: obj.metadata?.generation,
          now: deps.now,
        }),
      },
    }
    try {
      await kube.mergePatch(target.resource, ref, patch, { subresource: 'status' })
    } catch (error) {
      // Kinds without a status subresource answer 404 on /status.
      if (!hasKubeReason(error, 'NotFound')) throw error
      await kube.mergePatch(target.resource, ref, patch)
    }
    // Only reason and message: the caller may hand in an outcome whose own `type` is not an Event type.
    await recordEvent(deps, obj, {
      type: 'Warning',
      reason: failure.reason,
      message: failure.message,
    })
  } catch (error) {
    log.warn({ err: errorMessage(error) }, 'could not record the permanent failure')
  }
}
