/**
 * @module The shapes the MachineSet and MachineDeployment reconcilers read from the apiserver:
 * API types plus the server-set metadata (owner references, timestamps) the zod schemas leave
 * untyped, and the owner-reference helpers both layers use.
 */

import { HUB_API_VERSION } from '../../api/group'
import type { MachineSpec, MachineStatus } from '../../api/v1beta1/machine'
import type { MachineSet } from '../../api/v1beta1/machine-set'
import type { ObjectMeta, OwnerReference } from '../../kube/resource'

/** Metadata as the apiserver returns it: always named, with timestamps as strings. */
export type ServerMeta = ObjectMeta & {
  name: string
  namespace?: string
  creationTimestamp?: string
}

/** A Machine as listed. */
export interface MachineObject {
  apiVersion?: string
  kind?: string
  metadata: ServerMeta
  spec?: Partial<MachineSpec>
  status?: MachineStatus
  [field: string]: unknown
}

/** A MachineSet as read (defaults already applied by the webhook). */
export interface MachineSetObject {
  apiVersion?: string
  kind?: string
  metadata: ServerMeta
  spec: MachineSet['spec']
  status?: MachineSet['status']
  [field: string]: unknown
}

/** The controller owner reference of `obj`, if any. */
export function controllerOf(obj: { metadata: ObjectMeta }): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((ref) => ref.controller === true)
}

/** True when `owner` (by uid) is the controller of `obj`. */
export function isControlledBy(
  obj: { metadata: ObjectMeta },
  ownerUid: string | undefined,
): boolean {
  return ownerUid !== undefined && controllerOf(obj)?.uid === ownerUid
}

/**
 * The controller owner reference to put on a child. `blockOwnerDeletion` lets foreground deletion
 * of the owner wait for its children, as Deployments and ReplicaSets do.
 */
export function controllerReference(owner: {
  apiVersion?: string
  kind?: string
  metadata: ObjectMeta
}): OwnerReference {
  return {
    apiVersion: owner.apiVersion ?? HUB_API_VERSION,
    kind: owner.kind ?? 'MachineSet',
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  }
}

/** True when the object is being deleted. */
export function isDeleting(obj: { metadata: ObjectMeta }): boolean {
  return obj.metadata.deletionTimestamp !== undefined && obj.metadata.deletionTimestamp !== null
}
