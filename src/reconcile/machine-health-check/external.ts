/**
 * @module External remediation requests made from `spec.remediation.externalTemplateRef`, following
 * the Cluster API contract: a `FooRemediationTemplate` holds `spec.template.spec`; the request is a
 * `FooRemediation` named after the Machine, owned by it, with that spec. Pure.
 * https://cluster-api.sigs.k8s.io/tasks/automated-machine-management/healthchecking#remediation-short-circuiting
 */
import type { KubeObject, ResourceType } from '../../kube/resource'
import { remediationRequestKind } from './events'

/** A template reference as in the spec. */
export interface TemplateRef {
  apiVersion: string
  kind: string
  name: string
}

/**
 * The plural of a kind the way kubebuilder and controller-gen derive it (`Foo` -> `foos`,
 * `Box` -> `boxes`, `Policy` -> `policies`). The KubeClient has no discovery, and remediation CRDs
 * are generated with these defaults; a CRD with an irregular plural is not supported.
 */
export function guessPlural(kind: string): string {
  const lower = kind.toLowerCase()
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`
  return `${lower}s`
}

function typeOf(apiVersion: string, kind: string): ResourceType {
  const slash = apiVersion.lastIndexOf('/')
  const group = slash < 0 ? '' : apiVersion.slice(0, slash)
  const version = apiVersion.slice(slash + 1)
  return { group, version, kind, plural: guessPlural(kind), namespaced: true }
}

/** The resource type of the template itself. */
export function templateType(ref: TemplateRef): ResourceType {
  return typeOf(ref.apiVersion, ref.kind)
}

/** The resource type of requests made from templates of `ref`'s kind. */
export function requestType(ref: TemplateRef): ResourceType {
  return typeOf(ref.apiVersion, remediationRequestKind(ref.kind))
}

/** The request for `machine`, named after it and owned by it so it goes when the Machine goes. */
export function remediationRequest(
  ref: TemplateRef,
  template: KubeObject,
  machine: { name: string; uid?: string | undefined; namespace: string; apiVersion: string },
): KubeObject {
  const spec = (template.spec as { template?: { spec?: unknown } } | undefined)?.template?.spec
  return {
    apiVersion: ref.apiVersion,
    kind: remediationRequestKind(ref.kind),
    metadata: {
      name: machine.name,
      namespace: machine.namespace,
      ownerReferences: [
        {
          apiVersion: machine.apiVersion,
          kind: 'Machine',
          name: machine.name,
          uid: machine.uid ?? '',
        },
      ],
    },
    spec: spec ?? {},
  }
}

/** The value of the hand-off annotation for a request: `Kind/name`. */
export function requestMarker(ref: TemplateRef, machineName: string): string {
  return `${remediationRequestKind(ref.kind)}/${machineName}`
}
