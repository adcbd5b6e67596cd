/**
 * @module cluster-autoscaler's side of the contract where the tests make its requests by hand:
 * kubectl as its ServiceAccount, and the provider ID rule it indexes Machines and Nodes by.
 */
import { kubectl } from '../../harness/kube'

/** kubectl in `namespace` as `user`, failing on a refusal like the autoscaler would. */
export function kubectlAs(user: string, namespace: string) {
  return async (args: string[]): Promise<string> =>
    (await kubectl([...args, '--as', user, '-n', namespace])).stdout
}

/** What the autoscaler indexes Machines and Nodes by: the provider ID after its last `/`. */
export function normalizedProviderID(id: string): string {
  return id.split('/').at(-1) ?? id
}
