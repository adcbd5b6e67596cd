/**
 * @module Which keys a transport limited to one namespace may run. Changes of cluster-scoped kinds
 * (Nodes) map to objects in any namespace; a worker for one namespace must not reconcile another's,
 * whose providers or credentials it may not have.
 */
import type { ObjectKey } from '../kube/object-key'

/** True when `key` is cluster-scoped, in `namespace`, or no namespace limit is set. */
export function inNamespaceScope(key: ObjectKey, namespace: string | undefined): boolean {
  return !namespace || key.namespace === undefined || key.namespace === namespace
}
