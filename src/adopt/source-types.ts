/**
 * @module The kinds `machine-api adopt` reads and releases: Cluster API's core and CAPA kinds and
 * OpenShift's machine.openshift.io kinds, by group/version/plural, and the keys they use for
 * pausing and ownership. Plain data.
 */
import { API_GROUP } from '../api/group'
import type { KubeObject, ResourceType } from '../kube/resource'

function namespaced(group: string, version: string, kind: string, plural: string): ResourceType {
  return { group, version, kind, plural, namespaced: true }
}

export const CAPI_GROUP = 'cluster.x-k8s.io'
export const CAPA_GROUP = 'infrastructure.cluster.x-k8s.io'
export const OPENSHIFT_GROUP = 'machine.openshift.io'

/** The source kinds, as served by the upstream CRDs. */
export const sourceTypes = {
  capiDeployment: namespaced(CAPI_GROUP, 'v1beta1', 'MachineDeployment', 'machinedeployments'),
  capiSet: namespaced(CAPI_GROUP, 'v1beta1', 'MachineSet', 'machinesets'),
  capiMachine: namespaced(CAPI_GROUP, 'v1beta1', 'Machine', 'machines'),
  capiHealthCheck: namespaced(CAPI_GROUP, 'v1beta1', 'MachineHealthCheck', 'machinehealthchecks'),
  awsMachine: namespaced(CAPA_GROUP, 'v1beta2', 'AWSMachine', 'awsmachines'),
  awsMachineTemplate: namespaced(
    CAPA_GROUP,
    'v1beta2',
    'AWSMachineTemplate',
    'awsmachinetemplates',
  ),
  openshiftSet: namespaced(OPENSHIFT_GROUP, 'v1beta1', 'MachineSet', 'machinesets'),
  openshiftMachine: namespaced(OPENSHIFT_GROUP, 'v1beta1', 'Machine', 'machines'),
  openshiftHealthCheck: namespaced(
    OPENSHIFT_GROUP,
    'v1beta1',
    'MachineHealthCheck',
    'machinehealthchecks',
  ),
} as const

/** Cluster API's pause annotation: its controllers leave an object that carries it alone. */
export const CAPI_PAUSED = `${CAPI_GROUP}/paused`

/**
 * The annotation that marks a source object paused for adoption: Cluster API's own pause for its
 * kinds; for OpenShift's (whose controller must be stopped instead) a marker of the adoption.
 */
export function pauseAnnotation(ref: SourceRef): string {
  return ref.type.group === OPENSHIFT_GROUP ? `${API_GROUP}/adopting` : CAPI_PAUSED
}

/** The Deployment that runs OpenShift's Machine controllers (machine-api-operator creates it). */
export const OPENSHIFT_CONTROLLERS = {
  namespace: 'openshift-machine-api',
  name: 'machine-api-controllers',
} as const

/** Any source object as read. */
export interface SourceObject extends KubeObject {
  metadata: NonNullable<KubeObject['metadata']> & { name: string; namespace?: string }
}

/** One source object, addressed. */
export interface SourceRef {
  type: ResourceType
  namespace: string
  name: string
}

/** `Kind.group/namespace/name`: how messages and the adopted-from annotation name a source. */
export function describeRef(ref: SourceRef): string {
  return `${ref.type.kind}.${ref.type.group}/${ref.namespace}/${ref.name}`
}
