/**
 * @module cluster-autoscaler's side of the contract, for the tests: its identity (a ServiceAccount
 * bound to infra/rbac/cluster-autoscaler.yaml exactly as docs/machine-sets.md says), the kubectl
 * calls that make the same API requests its clusterapi provider makes, and the rules it applies
 * to what it reads (quoted from its source in docs/machine-sets.md). The real autoscaler binary is
 * not used: its Go module is not served by the registry this project can reach.
 */
import { join } from 'node:path'
import { kubectl } from '../../harness/kube'
import { kubectlStatus, suffix } from '../infra/manifests'

const repoRoot = join(import.meta.dirname, '..', '..', '..')

/** The autoscaler's ServiceAccount in `namespace`, bound to the shipped role; returns its user. */
export async function bindAutoscalerRole(namespace: string): Promise<{
  user: string
  unbind: () => Promise<void>
}> {
  await kubectl(['apply', '-f', join(repoRoot, 'infra/rbac/cluster-autoscaler.yaml')])
  await kubectl(['create', 'serviceaccount', 'cluster-autoscaler', '-n', namespace])
  const binding = `cluster-autoscaler-machine-api-${suffix()}`
  await kubectl([
    'create',
    'clusterrolebinding',
    binding,
    '--clusterrole=machine-api:cluster-autoscaler',
    `--serviceaccount=${namespace}:cluster-autoscaler`,
  ])
  return {
    user: `system:serviceaccount:${namespace}:cluster-autoscaler`,
    unbind: async () => {
      await kubectlStatus(['delete', 'clusterrolebinding', binding, '--wait=false'])
    },
  }
}

/** kubectl in `namespace` as `user`, failing on a refusal like the autoscaler would. */
export function kubectlAs(user: string, namespace: string) {
  return async (args: string[]): Promise<string> =>
    (await kubectl([...args, '--as', user, '-n', namespace])).stdout
}

type Obj = {
  metadata: { name: string; annotations?: Record<string, string> }
  spec?: { replicas?: number }
  status?: { replicas?: number }
}

/** The autoscaler's capacity annotation prefix. */
export const capacityKey = (name: string) => `capacity.cluster-autoscaler.kubernetes.io/${name}`

/** Its scale-from-zero rule: a group of zero can grow only when cpu and memory are known. */
export function canScaleFromZero(group: Obj): boolean {
  const a = group.metadata.annotations ?? {}
  return Boolean(a[capacityKey('cpu')]) && Boolean(a[capacityKey('memory')])
}

/**
 * Its rollout rule (`IsMachineDeploymentAndRollingOut`) over the sets it listed by the
 * `cluster.x-k8s.io/deployment-name` label: rolling out while a set other than the one with the
 * highest `machinedeployment.clusters.x-k8s.io/revision` still has replicas, in spec or status.
 */
export function isRollingOut(sets: readonly Obj[]): boolean {
  const revision = (s: Obj) =>
    s.metadata.annotations?.['machinedeployment.clusters.x-k8s.io/revision']
  const latest = Math.max(0, ...sets.map((s) => Number(revision(s) ?? 0)))
  return sets.some(
    (s) =>
      revision(s) !== String(latest) &&
      ((s.spec?.replicas ?? 0) > 0 || (s.status?.replicas ?? 0) > 0),
  )
}

/** What the autoscaler indexes Machines and Nodes by: the provider ID after its last `/`. */
export function normalizedProviderID(id: string): string {
  return id.split('/').at(-1) ?? id
}
