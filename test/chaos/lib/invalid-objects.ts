/**
 * @module Valid objects of every kind at both served versions: the starting points the bad-input
 * generator mutates (one mutation each makes them invalid). The scenario first proves each of
 * them is accepted (a dry run), so a refusal later is the mutation's doing and nothing else.
 */
import type { Kind } from '../../../src/api/kinds'

/** The served versions. */
export const servedVersions = ['v1beta1', 'v1alpha1'] as const
export type ServedVersion = (typeof servedVersions)[number]

/** Every kind of the group. */
export const allKinds: readonly Kind[] = [
  'Machine',
  'MachineSet',
  'MachineDeployment',
  'MachineHealthCheck',
  'MachineClass',
]

/** A plain JSON object (what the generator edits in place). */
export type Json = Record<string, unknown>

/** An aws provider spec admission accepts (nothing is launched: no worker runs). */
export function awsSpec(): Json {
  return {
    region: 'eu-west-1',
    ami: { id: 'ami-0123456789abcdef0' },
    instanceType: 't3.micro',
    subnet: { id: 'subnet-0123456789abcdef0' },
    rootVolume: { sizeGiB: 20, type: 'gp3' },
  }
}

/** The spec of a Machine (or of a set's template) at `version`. */
export function machineSpec(version: ServedVersion): Json {
  if (version === 'v1alpha1') {
    return {
      providerSpec: { provider: 'aws', value: awsSpec() },
      versions: { kubelet: 'v1.34.1' },
      taints: [{ key: 'dedicated', value: 'chaos', effect: 'NoSchedule' }],
    }
  }
  return {
    providerSpec: { provider: 'aws', value: awsSpec() },
    versions: { kubelet: 'v1.34.1' },
    taints: [{ key: 'dedicated', value: 'chaos', effect: 'NoSchedule' }],
    lifecycleHooks: { preDrain: [{ name: 'backup', owner: 'chaos' }] },
    nodeDrainTimeout: '5m',
  }
}

const templateLabels = { app: 'chaos-base' }

function setSpec(version: ServedVersion): Json {
  return {
    replicas: 0,
    selector: { matchLabels: { ...templateLabels } },
    template: { metadata: { labels: { ...templateLabels } }, spec: machineSpec(version) },
    deletePolicy: 'Oldest',
    minReadySeconds: 10,
  }
}

function specOf(kind: Kind, version: ServedVersion): Json {
  switch (kind) {
    case 'Machine':
      // A providerID, so an update can try to change it (it is immutable once set).
      return { ...machineSpec(version), providerID: 'aws:///eu-west-1a/i-0123456789abcdef0' }
    case 'MachineSet':
      return setSpec(version)
    case 'MachineDeployment':
      return {
        ...setSpec(version),
        deletePolicy: undefined,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
        revisionHistoryLimit: 2,
        progressDeadlineSeconds: 600,
      }
    case 'MachineHealthCheck':
      return {
        selector: { matchLabels: { ...templateLabels } },
        unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: '5m' }],
        nodeStartupTimeout: '10m',
        maxUnhealthy: '40%',
      }
    case 'MachineClass':
      return version === 'v1alpha1'
        ? { provider: 'aws', providerSpec: awsSpec(), secretRef: { name: 'aws' } }
        : { provider: 'aws', providerSpec: awsSpec(), credentialsSecretRef: { name: 'aws' } }
  }
}

/** A valid object of `kind` at `version` named `name` in `namespace`. */
export function validObject(
  kind: Kind,
  version: ServedVersion,
  ref: { namespace: string; name: string },
): Json {
  return {
    apiVersion: `machine-api.dev/${version}`,
    kind,
    metadata: { name: ref.name, namespace: ref.namespace },
    spec: specOf(kind, version),
  }
}

/** Where the Machine spec sits in an object of `kind` (undefined: the kind has none). */
export function machineSpecPath(kind: Kind): string | undefined {
  if (kind === 'Machine') return 'spec'
  if (kind === 'MachineSet' || kind === 'MachineDeployment') return 'spec.template.spec'
  return undefined
}

/** The value at a dotted path (`spec.template.spec`), or undefined. */
export function at(object: Json, path: string): Json | undefined {
  let current: unknown = object
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Json)[part]
  }
  return typeof current === 'object' && current !== null ? (current as Json) : undefined
}
