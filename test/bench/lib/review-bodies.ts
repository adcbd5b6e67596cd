/**
 * @module Realistic request bodies for the webhook benchmark: AdmissionReviews of a Machine,
 * MachineSet and MachineDeployment create (aws provider spec, labels, taints, hooks) and a
 * ConversionReview of a batch of Machines as the apiserver sends it for a LIST page.
 */
import { API_GROUP, HUB_API_VERSION, SPOKE_API_VERSION } from '../../../src/api/group'

type Obj = Record<string, unknown>

/** An aws provider spec as a production MachineClass or inline spec would carry it. */
export function awsProviderSpec(): Obj {
  return {
    provider: 'aws',
    value: {
      region: 'eu-west-1',
      ami: { id: 'ami-0abcdef1234567890' },
      instanceType: 'm7i.large',
      subnet: { filters: [{ name: 'tag:Name', values: ['workers-eu-west-1a'] }] },
      securityGroups: [{ id: 'sg-0123456789abcdef0' }],
      iamInstanceProfile: { name: 'workers' },
      tags: { team: 'platform', 'cost-center': 'k8s' },
      rootVolume: { sizeGiB: 100, type: 'gp3', encrypted: true },
      metadataOptions: { httpTokens: 'required', httpPutResponseHopLimit: 2 },
    },
  }
}

/** The spec of a worker Machine (also the template spec of sets and deployments). */
export function machineSpec(): Obj {
  return {
    providerSpec: awsProviderSpec(),
    versions: { kubelet: 'v1.34.1' },
    metadata: { labels: { 'node-role.kubernetes.io/worker': '', pool: 'workers' } },
    taints: [{ key: 'dedicated', value: 'workers', effect: 'NoSchedule' }],
    lifecycleHooks: { preDrain: [{ name: 'backup', owner: 'team-a' }] },
    nodeDrainTimeout: '10m',
  }
}

const labels = { app: 'web', pool: 'workers', 'app.kubernetes.io/part-of': 'shop' }

/** A v1beta1 Machine named `name` (status and uid as a stored object has them when `stored`). */
export function machine(name: string, namespace = 'default', stored = false): Obj {
  const object: Obj = {
    apiVersion: HUB_API_VERSION,
    kind: 'Machine',
    metadata: { name, namespace, labels },
    spec: machineSpec(),
  }
  if (!stored) return object
  return {
    ...object,
    metadata: {
      name,
      namespace,
      labels,
      uid: `00000000-0000-4000-8000-${name.replace(/\D/g, '').padStart(12, '0').slice(-12)}`,
      resourceVersion: '12345',
      generation: 1,
      creationTimestamp: '2026-01-01T00:00:00Z',
      finalizers: ['machine-api.dev/machine-cleanup'],
    },
    spec: { ...machineSpec(), providerID: `aws:///eu-west-1a/i-0${name.length}abcdef12345678` },
    status: {
      phase: 'Running',
      nodeRef: { name: `ip-10-0-1-${name.length}.eu-west-1.compute.internal` },
      addresses: [{ type: 'InternalIP', address: '10.0.1.23' }],
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'NodeReady',
          message: '',
          lastTransitionTime: '2026-01-01T00:01:00Z',
        },
      ],
    },
  }
}

function set(kind: 'MachineSet' | 'MachineDeployment'): Obj {
  return {
    apiVersion: HUB_API_VERSION,
    kind,
    metadata: { name: 'web', namespace: 'default', labels },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels }, spec: machineSpec() },
    },
  }
}

/** An AdmissionReview v1 CREATE of `object`, as the apiserver sends it. */
export function admissionReview(object: Obj, uid = '0b5e9e5e-1111-4a7e-9c1e-000000000001'): Obj {
  const kind = String(object.kind)
  const metadata = object.metadata as Obj
  const gvk = { group: API_GROUP, version: 'v1beta1', kind }
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: gvk,
      resource: { group: API_GROUP, version: 'v1beta1', resource: `${kind.toLowerCase()}s` },
      requestKind: gvk,
      operation: 'CREATE',
      namespace: metadata.namespace,
      name: metadata.name,
      userInfo: {
        username: 'kubernetes-admin',
        groups: ['system:masters', 'system:authenticated'],
      },
      object,
      oldObject: null,
      dryRun: false,
      options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions', fieldManager: 'kubectl' },
    },
  }
}

/** The three admission bodies the benchmark cycles through. */
export function admissionReviews(): Obj[] {
  return [machine('web-0'), set('MachineSet'), set('MachineDeployment')].map((o) =>
    admissionReview(o),
  )
}

/** A ConversionReview of `count` stored Machines from v1beta1 down to v1alpha1. */
export function conversionReviewDown(count: number): Obj {
  const objects = Array.from({ length: count }, (_, i) => machine(`web-${i}`, 'default', true))
  return conversionReview(SPOKE_API_VERSION, objects)
}

/** A ConversionReview of `objects` to `desiredAPIVersion`. */
export function conversionReview(desiredAPIVersion: string, objects: unknown[]): Obj {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    request: { uid: '0b5e9e5e-2222-4a7e-9c1e-000000000002', desiredAPIVersion, objects },
  }
}
