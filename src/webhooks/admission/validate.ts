/**
 * @module /validate: schema and kind rules on CREATE/UPDATE, plus warnings for missing classes
 * (looked up once where a user writes the reference).
 */
import { isDeepStrictEqual } from 'node:util'
import { API_GROUP } from '../../api/group'
import type { Kind } from '../../api/kinds'
import { type FieldError, formatFieldErrors } from '../../api/validation/field-errors'
import { type ValidationDeps, validateObject } from '../../api/validation/validate'
import { type AdmissionRequest, type AdmissionResponse, allow, deny } from '../review'
import { requestKind, toHubObject } from './hub-object'

/** Tells whether a MachineClass exists; undefined when that cannot be known right now. */
export type MachineClassExists = (namespace: string, name: string) => Promise<boolean | undefined>

/** What /validate needs: provider schemas and an optional MachineClass lookup. */
export interface ValidateDeps extends ValidationDeps {
  machineClassExists?: MachineClassExists
}

/**
 * Validates a CREATE or UPDATE; denies with every field error, warns about missing classes. The
 * answer is a promise only when a MachineClass has to be looked up (no await on the common path).
 */
export function validate(
  request: AdmissionRequest,
  deps: ValidateDeps,
): AdmissionResponse | Promise<AdmissionResponse> {
  const kind = requestKind(request)
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return allow(request.uid)
  // A status write (the status webhook's): its one rule, the shape bound, ran before this.
  if (request.subResource !== undefined && request.subResource !== '') return allow(request.uid)
  const object = toHubObject(request.object, kind)
  if (object === undefined) return deny(request.uid, 'request.object: Required value')
  const old = request.operation === 'UPDATE' ? toHubObject(request.oldObject, kind) : undefined
  // Ratchet: an update that leaves the spec alone (labels, finalizers, deletion) is never blocked
  // by a rule or provider schema that changed after the object was admitted.
  if (old !== undefined && isDeepStrictEqual(object.spec, old.spec)) return allow(request.uid)
  const errors = validateObject(kind, object, old, deps)
  if (errors.length > 0) return deny(request.uid, denialMessage(kind, request, errors))
  const ref = referencedClass(kind, object)
  const exists = deps.machineClassExists
  if (ref === undefined || exists === undefined || request.namespace === undefined)
    return allow(request.uid)
  // One lookup per reference a user writes: none for an update that keeps it (it was looked up
  // when written), nor for a Machine its MachineSet made from a template looked up when the set
  // was admitted (two GETs per Machine otherwise; measured by the api-cost benchmark).
  if (old !== undefined && referencedClass(kind, old)?.name === ref.name) return allow(request.uid)
  if (kind === 'Machine' && madeBySet(object)) return allow(request.uid)
  return classWarnings(ref, request.namespace, exists).then((warnings) =>
    allow(request.uid, { warnings }),
  )
}

function denialMessage(kind: Kind, request: AdmissionRequest, errors: FieldError[]): string {
  const name = request.name ? ` ${JSON.stringify(request.name)}` : ''
  return `${kind}${name} is invalid: ${formatFieldErrors(errors)}`
}

function referencedClass(
  kind: Kind,
  object: Record<string, unknown>,
): { path: string; name: string } | undefined {
  const spec = object.spec as Record<string, unknown> | undefined
  if (kind === 'Machine') return classRefAt(spec, 'spec.classRef')
  if (kind === 'MachineSet' || kind === 'MachineDeployment') {
    const template = spec?.template as Record<string, unknown> | undefined
    return classRefAt(
      template?.spec as Record<string, unknown> | undefined,
      'spec.template.spec.classRef',
    )
  }
  return undefined
}

/** Whether a MachineSet controls `object` (the set controller creates its Machines so). */
function madeBySet(object: Record<string, unknown>): boolean {
  const metadata = object.metadata as { ownerReferences?: unknown } | undefined
  const owners = Array.isArray(metadata?.ownerReferences) ? metadata.ownerReferences : []
  return owners.some((owner: { apiVersion?: unknown; kind?: unknown; controller?: unknown }) => {
    const group = typeof owner.apiVersion === 'string' ? owner.apiVersion.split('/')[0] : ''
    return owner.controller === true && owner.kind === 'MachineSet' && group === API_GROUP
  })
}

function classRefAt(spec: Record<string, unknown> | undefined, path: string) {
  const ref = spec?.classRef as { name?: unknown } | undefined
  return typeof ref?.name === 'string' ? { path, name: ref.name } : undefined
}

// A missing class is a warning, not a denial: GitOps tools apply objects in any order.
async function classWarnings(
  ref: { path: string; name: string },
  namespace: string,
  exists: MachineClassExists,
): Promise<string[]> {
  const found = await exists(namespace, ref.name).catch(() => undefined)
  return found === false
    ? [
        `${ref.path}.name: MachineClass ${JSON.stringify(ref.name)} does not exist (yet) in namespace ${namespace}`,
      ]
    : []
}
