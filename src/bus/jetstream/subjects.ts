/**
 * @module One NATS subject per object, so the stream's `max_msgs_per_subject: 1` keeps only the
 * newest hint per object. Kubernetes names may contain `.` (the NATS token separator) but never
 * `_`, so `.` is written as `_` and the mapping stays reversible.
 */
import type { ObjectKey } from '../../kube/object-key'

const clusterScoped = '_'

/** `<prefix>.<Kind>.<namespace or _>.<name with . as _>` */
export function keySubject(prefix: string, key: ObjectKey): string {
  const ns = key.namespace ? key.namespace : clusterScoped
  return `${prefix}.${key.kind}.${ns}.${key.name.replaceAll('.', '_')}`
}

const token = /^[A-Za-z0-9_-]+$/

/** The key of a subject made by keySubject, or undefined for anything else (poison). */
export function keyFromSubject(prefix: string, subject: string): ObjectKey | undefined {
  if (!subject.startsWith(`${prefix}.`)) return undefined
  const parts = subject.slice(prefix.length + 1).split('.')
  if (parts.length !== 3 || !parts.every((p) => token.test(p))) return undefined
  const [kind, ns, name] = parts as [string, string, string]
  const restored = name.replaceAll('_', '.')
  return ns === clusterScoped ? { kind, name: restored } : { kind, namespace: ns, name: restored }
}

/** The subject's part after the prefix (to file a dead letter under the same object). */
export function subjectSuffix(prefix: string, subject: string): string {
  return subject.startsWith(`${prefix}.`) ? subject.slice(prefix.length + 1) : subject
}
