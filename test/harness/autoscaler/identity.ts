/**
 * @module cluster-autoscaler's identity in the tests: the ServiceAccount `cluster-autoscaler`
 * bound to the shipped role (infra/rbac/cluster-autoscaler.yaml) by the command
 * docs/machine-sets.md gives, and, for the real autoscaler, to its own role for Nodes and Pods
 * (./workload-rbac.yaml), with a kubeconfig carrying a token for it.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { inject } from 'vitest'
import { kubectl } from '../kube'
import { documentedAutoscaler, fillPlaceholders } from './documented'

const repoRoot = join(import.meta.dirname, '..', '..', '..')
const workloadRbac = join(import.meta.dirname, 'workload-rbac.yaml')

/**
 * Creates the ServiceAccount in `namespace` and binds it as the doc says, under a binding name
 * made unique by the namespace (a leftover of an earlier run cannot clash); returns its user name.
 */
export async function bindAutoscalerRole(namespace: string): Promise<{
  user: string
  unbind: () => Promise<void>
}> {
  await kubectl(['apply', '-f', join(repoRoot, 'infra/rbac/cluster-autoscaler.yaml')])
  await kubectl(['create', 'serviceaccount', 'cluster-autoscaler', '-n', namespace])
  const documented = fillPlaceholders(documentedAutoscaler().binding, { namespace })
  const docName = 'cluster-autoscaler-machine-api'
  if (!documented.includes(docName)) throw new Error(`the doc's binding is not named ${docName}`)
  const binding = `${docName}-${namespace}`
  await kubectl(documented.map((word) => (word === docName ? binding : word)))
  return {
    user: `system:serviceaccount:${namespace}:cluster-autoscaler`,
    unbind: async () => {
      await kubectl(['delete', 'clusterrolebinding', binding, '--ignore-not-found', '--wait=false'])
    },
  }
}

/**
 * The ServiceAccount bound to both roles, and a kubeconfig for it in `dir` (the admin's cluster
 * and CA, the ServiceAccount's token).
 */
export async function autoscalerIdentity(namespace: string, dir: string) {
  const role = await bindAutoscalerRole(namespace)
  await kubectl(['apply', '-f', workloadRbac])
  const workloadBinding = `cluster-autoscaler-workload-${namespace}`
  await kubectl([
    'create',
    'clusterrolebinding',
    workloadBinding,
    '--clusterrole=machine-api-test:cluster-autoscaler-workload',
    `--serviceaccount=${namespace}:cluster-autoscaler`,
  ])
  const token = (
    await kubectl(['create', 'token', 'cluster-autoscaler', '-n', namespace, '--duration=2h'])
  ).stdout.trim()
  const admin = JSON.parse(readFileSync(inject('kubeconfigPath'), 'utf8')) as {
    clusters: Array<{ name: string }>
  }
  const kubeconfigPath = join(dir, 'cluster-autoscaler.kubeconfig')
  const kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: admin.clusters,
    users: [{ name: 'cluster-autoscaler', user: { token } }],
    contexts: [
      {
        name: 'cluster-autoscaler',
        context: { cluster: admin.clusters[0]?.name, user: 'cluster-autoscaler' },
      },
    ],
    'current-context': 'cluster-autoscaler',
  }
  writeFileSync(kubeconfigPath, JSON.stringify(kubeconfig), { mode: 0o600 })
  return {
    kubeconfigPath,
    async unbind() {
      await role.unbind()
      await kubectl([
        'delete',
        'clusterrolebinding',
        workloadBinding,
        '--ignore-not-found',
        '--wait=false',
      ])
    },
  }
}
