/**
 * @module The caller's side of the `kwok` provider's NodeWriter port, implemented with
 * @kubernetes/client-node against the real control plane (what the Machine reconcile will wire).
 */
import { ApiException, type CoreV1Api, type V1Node } from '@kubernetes/client-node'
import type { NodeAddress } from '../../../src/providers/actuator'
import type { NodeWriter, ObservedNode } from '../../../src/providers/kwok/node-writer'

function isCode(error: unknown, code: number): boolean {
  return error instanceof ApiException && error.code === code
}

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

/** A NodeWriter over `core`. */
export function clientNodeWriter(core: CoreV1Api): NodeWriter {
  return {
    async createNode(node) {
      try {
        await core.createNode({
          body: {
            metadata: { name: node.name, labels: node.labels, annotations: node.annotations },
            spec: { providerID: node.providerID },
            status: { capacity: node.allocatable, allocatable: node.allocatable },
          },
        })
        return true
      } catch (error) {
        if (isCode(error, 409)) return false
        throw error
      }
    },
    async getNode(name) {
      try {
        return observe(await core.readNode({ name }))
      } catch (error) {
        if (isCode(error, 404)) return undefined
        throw error
      }
    },
    async deleteNode(name) {
      try {
        await core.deleteNode({ name })
      } catch (error) {
        if (!isCode(error, 404)) throw error
      }
    },
  }
}
