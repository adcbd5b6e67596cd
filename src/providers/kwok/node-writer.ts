/**
 * @module The Node operations of the `kwok` provider, as it sees Nodes. kube-node-writer.ts runs
 * them over the client each call's context carries (the reconcile's own).
 */
import type { NodeAddress } from '../actuator'

/** A Node the `kwok` provider wants to exist. */
export interface SimulatedNode {
  name: string
  providerID: string
  labels: Record<string, string>
  annotations: Record<string, string>
  /** `status.capacity` and `status.allocatable` (kwok keeps what is set at creation). */
  allocatable: Record<string, string>
}

/** A Node as read back. */
export interface ObservedNode {
  name: string
  providerID: string | undefined
  labels: Record<string, string>
  addresses: NodeAddress[]
  /** Set once deletion started (deletionTimestamp). */
  deleting: boolean
}

/** Node access for the `kwok` provider; every method is idempotent. */
export interface NodeWriter {
  /** Creates the Node; an existing Node of that name is not an error. */
  createNode(node: SimulatedNode): Promise<void>
  /** The Node, or undefined when it does not exist. */
  getNode(name: string): Promise<ObservedNode | undefined>
  /** Deletes the Node; a missing Node is not an error. */
  deleteNode(name: string): Promise<void>
}
