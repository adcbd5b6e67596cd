/**
 * @module The Node side of a Machine: find the Node that joined for it (by providerID, the
 * internal IP as a fallback for providers without one), and write what the Machine owns on it.
 */
import type { V1Node } from '@kubernetes/client-node'
import { listPages } from '../../kube/paged-list'
import { coreTypes, type KubeObject } from '../../kube/resource'
import type { NodeAddress } from '../../providers/actuator'
import type { MachineDeps } from './machine-deps'
import type { NodeSyncPatch } from './node-sync'

/**
 * Looks the Node up by name first (providers report the hostname the kubelet registers under),
 * and only then pages through all Nodes: linking is a one-time step per Machine.
 */
export async function findNode(
  deps: MachineDeps,
  providerID: string | undefined,
  addresses: NodeAddress[],
): Promise<V1Node | undefined> {
  const matches = (n: V1Node) =>
    providerID
      ? n.spec?.providerID === providerID
      : (n.status?.addresses ?? []).some(
          (a) =>
            a.type === 'InternalIP' &&
            addresses.some((m) => m.type === 'InternalIP' && m.address === a.address),
        )
  for (const candidate of addresses.filter(
    (a) => a.type === 'Hostname' || a.type === 'InternalDNS',
  )) {
    const node = await deps.kube.get<V1Node & KubeObject>(coreTypes.node, {
      name: candidate.address,
    })
    if (node && matches(node)) return node
  }
  if (!providerID && addresses.length === 0) return undefined
  for await (const page of listPages<V1Node & KubeObject>(deps.kube, coreTypes.node)) {
    const node = page.items.find(matches)
    if (node) return node
  }
  return undefined
}

/** Writes `patch` (from planNodeSync) to the Node; returns the updated Node. */
export async function writeNodeSync(
  deps: MachineDeps,
  nodeName: string,
  patch: NodeSyncPatch,
  resourceVersion: string | undefined,
): Promise<V1Node> {
  return await deps.kube.mergePatch<V1Node & KubeObject>(
    coreTypes.node,
    { name: nodeName },
    {
      // Taints are a list a merge patch replaces whole: guard it against a concurrent writer
      // (the node lifecycle controller adds taints too).
      metadata: {
        labels: patch.labels,
        annotations: patch.annotations,
        ...(patch.taints ? { resourceVersion } : {}),
      },
      ...(patch.taints ? { spec: { taints: patch.taints } } : {}),
    },
  )
}
