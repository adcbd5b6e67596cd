/**
 * @module How a Node change finds its Machine without listing all Machines.
 *
 * 1. Once linked, the Machine controller annotates the Node with `machine-api.dev/machine:
 *    <namespace>/<name>`: the mapping reads the event's own object, no API call (an annotation,
 *    because `namespace/name` can exceed a label value's 63 characters and contains `/`).
 * 2. Before the link exists (the Node just joined), the Node's `spec.providerID` is hashed and
 *    matched against the label `machine-api.dev/provider-id-hash` that the Machine controller puts
 *    on a Machine when it learns its providerID: one list call filtered by the apiserver with a
 *    label selector, returning only that Machine.
 */
import { createHash } from 'node:crypto'
import type { ObjectKey } from '../kube/object-key'
import type { KubeObject } from '../kube/resource'
import { ANNOTATIONS } from './group'

/** A label-value-safe digest of a providerID (32 hex chars; providerIDs can be long, with `/`). */
export function providerIdHash(providerId: string): string {
  return createHash('sha256').update(providerId).digest('hex').slice(0, 32)
}

/** The Machine key named by a Node's annotation, if any. */
export function machineKeyFromNode(
  node: KubeObject,
  machineKind = 'Machine',
): ObjectKey | undefined {
  const value = node.metadata?.annotations?.[ANNOTATIONS.machine]
  if (!value) return undefined
  const [namespace, name, ...rest] = value.split('/')
  if (!namespace || !name || rest.length > 0) return undefined
  return { kind: machineKind, namespace, name }
}

/** The Node's providerID, if set. */
export function nodeProviderId(node: KubeObject): string | undefined {
  const spec = node.spec as { providerID?: unknown } | undefined
  return typeof spec?.providerID === 'string' && spec.providerID !== ''
    ? spec.providerID
    : undefined
}
