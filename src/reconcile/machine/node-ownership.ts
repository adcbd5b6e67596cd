/**
 * @module Whether a Node is a Machine's own, before anything destructive (drain, delete) is done
 * to it. `status.nodeRef` only names a Node, and whoever can write a Machine's status can point it
 * anywhere; what the Node itself says decides: its `spec.providerID` equals the Machine's, or
 * (before either has a providerID) its `machine-api.dev/machine` annotation, set when this Machine
 * linked it, names this Machine. Pure.
 */
import { machineKeyFromNode, nodeProviderId } from '../../api/node-link'
import type { KubeObject } from '../../kube/resource'

/** Why a Node is not the Machine's, for the NodeRefMismatch condition; undefined when it is. */
export function foreignNodeReason(
  machine: { metadata: { namespace?: string | undefined; name?: string | undefined } } & {
    spec: { providerID?: string | undefined }
  },
  node: KubeObject,
): string | undefined {
  const name = node.metadata?.name ?? ''
  const nodeId = nodeProviderId(node)
  const machineId = machine.spec.providerID
  if (nodeId && machineId) {
    return nodeId === machineId
      ? undefined
      : `Node ${name} has providerID ${nodeId}, this Machine ${machineId}`
  }
  const owner = machineKeyFromNode(node)
  if (owner?.namespace === machine.metadata.namespace && owner?.name === machine.metadata.name) {
    return undefined
  }
  return owner
    ? `Node ${name} belongs to Machine ${owner.namespace}/${owner.name}`
    : `Node ${name} has no providerID or Machine annotation naming this Machine`
}
