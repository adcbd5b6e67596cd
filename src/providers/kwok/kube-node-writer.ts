/** @module The kwok provider's NodeWriter port over the KubeClient. */
import type { V1Node } from '@kubernetes/client-node'
import { hasKubeReason } from '../../kube/errors'
import type { KubeClient } from '../../kube/kube-client'
import { coreTypes, type KubeObject } from '../../kube/resource'
import type { NodeAddress } from '../actuator'
import type { NodeWriter, ObservedNode } from './node-writer'

function observe(node: V1Node): ObservedNode {
  return {
    name: node.metadata?.name ?? '',
    providerID: node.spec?.providerID,
    labels: node.metadata?.labels ?? {},
    addresses: (node.status?.addresses ?? []).map(
      (a) => ({ type: a.type, address: a.address }) as NodeAddress,
    ),
    deleting: node.metadata?.deletionTimestamp !== undefined,
  }
}

/** A NodeWriter that creates, reads and deletes Nodes through `kube`. */
export function kubeNodeWriter(kube: KubeClient): NodeWriter {
  return {
    async createNode(node) {
      try {
        await kube.create<KubeObject>(coreTypes.node, {
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name: node.name, labels: node.labels, annotations: node.annotations },
          spec: { providerID: node.providerID },
          status: { capacity: node.allocatable, allocatable: node.allocatable },
        })
      } catch (error) {
        if (!hasKubeReason(error, 'AlreadyExists')) throw error
      }
    },
    async getNode(name) {
      const node = await kube.get<V1Node & KubeObject>(coreTypes.node, { name })
      return node ? observe(node) : undefined
    },
    async deleteNode(name) {
      await kube.delete(coreTypes.node, { name })
    },
  }
}
