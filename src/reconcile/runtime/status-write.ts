/**
 * @module Step 3 of the reconcile contract: status is written last, once, conditioned on the
 * resourceVersion the reconcile read. A concurrent writer makes it fail with Conflict, which the
 * runner turns into a quick requeue; the next run re-reads and recomputes.
 * https://kubernetes.io/docs/reference/using-api/api-concepts/#concurrency-control-and-consistency
 */
import type { KubeClient } from '../../kube/kube-client'
import { type KubeObject, type ResourceType, refOf } from '../../kube/resource'

/**
 * Merge-patches `write.status` onto the status subresource of `write.observed`, only if the object is
 * still at `observed.metadata.resourceVersion`. Lists in `status` (conditions) replace the stored ones,
 * so pass the complete list. Returns the updated object; throws KubeApiError Conflict when stale.
 */
export async function writeStatus<T extends KubeObject>(
  kube: KubeClient,
  type: ResourceType,
  write: { observed: KubeObject; status: object },
): Promise<T> {
  const { observed, status } = write
  const resourceVersion = observed.metadata?.resourceVersion
  if (!resourceVersion)
    throw new Error('writeStatus needs the observed object with its resourceVersion')
  return await kube.mergePatch<T>(
    type,
    refOf(observed),
    { metadata: { resourceVersion }, status },
    { subresource: 'status' },
  )
}
