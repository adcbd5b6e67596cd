/**
 * @module What the e2e tests check on an installed overlay, as a user would with kubectl: pods of a
 * Deployment, Machines of a namespace, and polling until a condition holds.
 */
import type { E2eCluster } from './e2e-cluster'

export const systemNamespace = 'machine-api-system'

export interface PodView {
  name: string
  serviceAccountName: string
  nodeName: string
  deleting: boolean
  ready: boolean
}

export async function podsOf(cluster: E2eCluster, app: string): Promise<PodView[]> {
  const list = JSON.parse(
    await cluster.kubectl([
      'get',
      'pods',
      '-n',
      systemNamespace,
      '-l',
      `app.kubernetes.io/name=${app}`,
      '-o',
      'json',
    ]),
  ) as {
    items: {
      metadata: { name: string; deletionTimestamp?: string }
      spec: { serviceAccountName: string; nodeName: string }
      status: { conditions?: { type: string; status: string }[] }
    }[]
  }
  return list.items.map((pod) => ({
    name: pod.metadata.name,
    serviceAccountName: pod.spec.serviceAccountName,
    nodeName: pod.spec.nodeName,
    deleting: pod.metadata.deletionTimestamp !== undefined,
    ready: pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
  }))
}

/** Phases of the namespace's Machines that are not being deleted. */
export async function machinePhases(cluster: E2eCluster, namespace: string): Promise<string[]> {
  const list = JSON.parse(
    await cluster.kubectl(['get', 'machines', '-n', namespace, '-o', 'json']),
  ) as {
    items: { metadata: { deletionTimestamp?: string }; status?: { phase?: string } }[]
  }
  return list.items.filter((m) => !m.metadata.deletionTimestamp).map((m) => m.status?.phase ?? '')
}

/** Polls `probe` every 500 ms until it returns true; throws with the last value seen. */
export async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 180_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: T | undefined
  while (Date.now() < deadline) {
    last = await read()
    if (done(last)) return last
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(last)}`)
}
