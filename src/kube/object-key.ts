/**
 * @module Object keys: what an event names and what a reconcile receives. A key is a hint; the
 * reconcile re-reads the object it names.
 */
import type { KubeObject } from './resource'

/** Names one object of a kind. `namespace` is undefined for cluster-scoped kinds. */
export interface ObjectKey {
  readonly kind: string
  readonly namespace?: string | undefined
  readonly name: string
}

/** `Kind/namespace/name`, or `Kind/name` when cluster-scoped: a stable map key and log field. */
export function formatKey(key: ObjectKey): string {
  return key.namespace ? `${key.kind}/${key.namespace}/${key.name}` : `${key.kind}/${key.name}`
}

/** The key of `obj` as a `kind`; undefined when the object has no name. */
export function keyOf(kind: string, obj: KubeObject): ObjectKey | undefined {
  const name = obj.metadata?.name
  if (!name) return undefined
  const namespace = obj.metadata?.namespace
  return namespace ? { kind, namespace, name } : { kind, name }
}
