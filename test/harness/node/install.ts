/**
 * @module Installs an overlay of infra/ into the e2e cluster as a user would: a kustomization of
 * their own that takes the overlay as its resource, points `images:` at the image loaded into the
 * node, and patches what a local try changes (kwok as the provider, with the RBAC it needs),
 * applied with `kubectl apply -k`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import type { E2eCluster } from './e2e-cluster'

const repoRoot = join(import.meta.dirname, '..', '..', '..')

/** The overlays' image after their own `images:` rename (infra/base/kustomization.yaml). */
const shippedImage = 'ghcr.io/machine-api/machine-api'

/** A workload and the container in it that runs machine-api. */
export interface Workload {
  kind: 'Deployment' | 'CronJob'
  name: string
  container: string
}

/** Sets MACHINE_API_PROVIDERS=kwok in the workload's container (a strategic merge on env by name). */
function kwokProviderPatch(workload: Workload): object {
  const podSpec = {
    containers: [
      { name: workload.container, env: [{ name: 'MACHINE_API_PROVIDERS', value: 'kwok' }] },
    ],
  }
  const spec =
    workload.kind === 'CronJob'
      ? { jobTemplate: { spec: { template: { spec: podSpec } } } }
      : { template: { spec: podSpec } }
  const apiVersion = workload.kind === 'CronJob' ? 'batch/v1' : 'apps/v1'
  return {
    patch: JSON.stringify({
      apiVersion,
      kind: workload.kind,
      metadata: { name: workload.name, namespace: 'machine-api-system' },
      spec,
    }),
  }
}

/**
 * The kwok provider creates the Nodes of its Machines (a cloud's kubelets do that for real
 * providers), which the shipped RBAC does not grant: a local try adds this.
 */
const kwokNodesRbac = [
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'machine-api-kwok-nodes' },
    rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['create'] }],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'machine-api-kwok-nodes' },
    roleRef: {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'machine-api-kwok-nodes',
    },
    subjects: ['machine-api-controller', 'machine-api-sweep'].map((name) => ({
      kind: 'ServiceAccount',
      name,
      namespace: 'machine-api-system',
    })),
  },
]

export async function installOverlay(
  cluster: E2eCluster,
  overlay: string,
  workloads: Workload[],
  /** More kustomization fields, e.g. a configMapGenerator merging the user's settings. */
  extra: Record<string, unknown> = {},
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'machine-api-install-'))
  try {
    const kustomization = {
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: [
        relative(dir, join(repoRoot, 'infra', 'overlays', overlay)),
        'kwok-nodes-rbac.yaml',
      ],
      images: [{ name: shippedImage, newName: cluster.image.name, newTag: cluster.image.tag }],
      patches: workloads.map(kwokProviderPatch),
      ...extra,
    }
    // JSON is YAML; kustomize reads it.
    writeFileSync(
      join(dir, 'kwok-nodes-rbac.yaml'),
      kwokNodesRbac.map((o) => JSON.stringify(o)).join('\n---\n'),
    )
    writeFileSync(join(dir, 'kustomization.yaml'), JSON.stringify(kustomization, null, 2))
    return await cluster.kubectl(['apply', '-k', dir])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
