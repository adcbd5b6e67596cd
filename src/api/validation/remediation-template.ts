/**
 * @module Which objects a MachineHealthCheck's `remediation.externalTemplateRef` may name. The
 * health check creates a request of the template's kind without `Template` (Cluster API's
 * external remediation contract), so the reference decides what the worker creates: only
 * `<Name>Template` kinds of a CRD group (a dotted group that is not Kubernetes' own, `*.k8s.io` or
 * `*.kubernetes.io`, nor `machine-api.dev`), never a Secret, a ConfigMap, a PodTemplate or any
 * built-in kind.
 */

const KIND = /^[A-Z][A-Za-z0-9]*Template$/
const GROUP = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/
const VERSION = /^v[0-9]+((alpha|beta)[0-9]+)?$/
// Groups served by Kubernetes itself (apps, batch, policy... have no dot and fail GROUP already),
// and machine-api's own (its kinds are made by its own controllers only).
const RESERVED_GROUP_SUFFIXES = ['k8s.io', 'kubernetes.io']
const OWN_GROUP = 'machine-api.dev'

/** A template reference as written in the spec. */
export interface TemplateReference {
  apiVersion: string
  kind: string
}

/**
 * Why the worker must not create requests from `ref`: `{ field, message }` with the field of the
 * reference at fault (`apiVersion` or `kind`), or undefined when `ref` is allowed.
 */
export function templateReferenceError(
  ref: TemplateReference,
): { field: 'apiVersion' | 'kind'; message: string } | undefined {
  const slash = ref.apiVersion.indexOf('/')
  const group = slash === -1 ? '' : ref.apiVersion.slice(0, slash)
  const version = ref.apiVersion.slice(slash + 1)
  if (!GROUP.test(group) || !VERSION.test(version)) {
    return {
      field: 'apiVersion',
      message: `${JSON.stringify(ref.apiVersion)} must be <group>/<version> of a custom resource, e.g. infrastructure.example.com/v1beta1`,
    }
  }
  const reserved = RESERVED_GROUP_SUFFIXES.some((s) => group === s || group.endsWith(`.${s}`))
  if (reserved || group === OWN_GROUP) {
    return {
      field: 'apiVersion',
      message: `the group ${JSON.stringify(group)} belongs to Kubernetes or machine-api, not to a remediation provider`,
    }
  }
  if (!KIND.test(ref.kind) || ref.kind === 'Template') {
    return {
      field: 'kind',
      message: `${JSON.stringify(ref.kind)} must be a remediation template kind, <Name>Template (requests are created as <Name>)`,
    }
  }
  return undefined
}
