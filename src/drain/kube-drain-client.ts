/** @module The DrainClient port over the KubeClient: cordon by merge patch, list by field selector, evict. */
import type { V1Pod } from '@kubernetes/client-node'
import { asKubeApiError } from '../kube/errors'
import type { KubeClient } from '../kube/kube-client'
import { listPages } from '../kube/paged-list'
import { coreTypes, type KubeObject } from '../kube/resource'
import type { DrainClient } from './drain-client'

/** A DrainClient that talks to the apiserver through `kube`. */
export function kubeDrainClient(kube: KubeClient): DrainClient {
  return {
    async cordon(nodeName) {
      await kube.mergePatch(coreTypes.node, { name: nodeName }, { spec: { unschedulable: true } })
    },
    async listPodsOnNode(nodeName) {
      const pods: V1Pod[] = []
      const pages = listPages<V1Pod & KubeObject>(kube, coreTypes.pod, {
        fieldSelector: `spec.nodeName=${nodeName}`,
        limit: 200,
      })
      for await (const page of pages) pods.push(...page.items)
      return pods
    },
    async evict(pod, options) {
      try {
        await kube.evict(pod, options)
        return { type: 'evicted' }
      } catch (error) {
        const kubeError = asKubeApiError(error)
        if (kubeError?.reason === 'NotFound') return { type: 'gone' }
        // 429: a PodDisruptionBudget forbids it now; the apiserver's message names the budget.
        if (kubeError?.reason === 'TooManyRequests')
          return { type: 'blocked', message: kubeError.message }
        if (kubeError) return { type: 'failed', message: kubeError.message }
        throw error
      }
    },
  }
}
