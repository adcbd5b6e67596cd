/**
 * @module Resource types and the REST paths the apiserver serves them under. Pure: the dynamic
 * client builds every URL here, so core and custom resources share one code path.
 * https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-uris
 */

/** Enough about a kind to address it without discovery. `group` is '' for the core group. */
export interface ResourceType {
  readonly group: string
  readonly version: string
  readonly kind: string
  /** The lowercase plural used in URLs, e.g. `machinesets`. */
  readonly plural: string
  readonly namespaced: boolean
}

/** Names one object of a known type; `namespace` is ignored for cluster-scoped types. */
export interface ObjectRef {
  readonly namespace?: string | undefined
  readonly name: string
}

/** The object metadata fields the runtime reads (a subset of `metav1.ObjectMeta`). */
export interface ObjectMeta {
  name?: string
  namespace?: string
  uid?: string
  resourceVersion?: string
  generation?: number
  labels?: Record<string, string>
  annotations?: Record<string, string>
  ownerReferences?: OwnerReference[]
  deletionTimestamp?: string | Date
  finalizers?: string[]
  [field: string]: unknown
}

/** `metav1.OwnerReference`. */
export interface OwnerReference {
  apiVersion: string
  kind: string
  name: string
  uid: string
  controller?: boolean
  blockOwnerDeletion?: boolean
}

/** Any Kubernetes object, typed only as far as the runtime needs. */
export interface KubeObject {
  apiVersion?: string
  kind?: string
  metadata?: ObjectMeta
  [field: string]: unknown
}

/** `group/version`, or `version` for the core group. */
export function apiVersionOf(type: ResourceType): string {
  return type.group === '' ? type.version : `${type.group}/${type.version}`
}

/**
 * The collection path for `type`, in `namespace` when given (all namespaces otherwise), e.g.
 * `/apis/machine-api.dev/v1beta1/namespaces/ns/machines` or `/api/v1/nodes`.
 */
export function collectionPath(type: ResourceType, namespace?: string): string {
  const root = type.group === '' ? `/api/${type.version}` : `/apis/${type.group}/${type.version}`
  const ns = type.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : ''
  return `${root}${ns}/${type.plural}`
}

/** The path of one object, optionally of one of its subresources (`status`, `eviction`...). */
export function objectPath(type: ResourceType, ref: ObjectRef, subresource?: string): string {
  if (type.namespaced && !ref.namespace) {
    throw new Error(`${type.kind} ${ref.name}: a namespaced kind needs a namespace`)
  }
  const base = `${collectionPath(type, ref.namespace)}/${encodeURIComponent(ref.name)}`
  return subresource ? `${base}/${subresource}` : base
}

/** Query string from defined values only, with a leading `?` when non-empty. */
export function queryString(params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value))
  }
  const text = search.toString()
  return text === '' ? '' : `?${text}`
}

/** The ObjectRef of an object (its namespace and name). */
export function refOf(obj: KubeObject): ObjectRef {
  return { namespace: obj.metadata?.namespace, name: obj.metadata?.name ?? '' }
}

/** The core/v1 types the runtime itself uses. */
export const coreTypes = {
  node: { group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false },
  pod: { group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true },
  event: { group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true },
  secret: { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true },
  configMap: {
    group: '',
    version: 'v1',
    kind: 'ConfigMap',
    plural: 'configmaps',
    namespaced: true,
  },
  namespace: {
    group: '',
    version: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    namespaced: false,
  },
  customResourceDefinition: {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
  },
} as const satisfies Record<string, ResourceType>
