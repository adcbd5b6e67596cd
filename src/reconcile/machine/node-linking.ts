/**
 * @module The Node side of a Machine: find the Node that joined for it (by the name its provider
 * reports, else among all Nodes by providerID, or the internal IP for providers without one),
 * and write what the Machine owns on it.
 */
import type { V1Node } from '@kubernetes/client-node'
import type { KubeClient } from '../../kube/kube-client'
import { listPages } from '../../kube/paged-list'
import { coreTypes, type KubeObject } from '../../kube/resource'
import type { NodeAddress } from '../../providers/actuator'
import type { MachineDeps } from './machine-deps'
import type { NodeSyncPatch } from './node-sync'

/** What identifies a Machine's Node: what its provider reported about the instance. */
export interface NodeLookup {
  /** The providerID the Node must carry; without one, an InternalIP the Node must report. */
  providerID: string | undefined
  /** The Node's name, when the provider knows it (ProviderResult.nodeName). */
  nodeName?: string | undefined
  addresses: readonly NodeAddress[]
}

/**
 * The Machine's Node, or undefined while none has joined. With a name from the provider it is one
 * GET, and a Node missing there has not joined yet; the paged list of every Node is the fallback
 * for providers that cannot know the name, and for a Node under that name that is another
 * instance's (a private DNS name reused after its old Node lingered).
 */
export async function findNode(kube: KubeClient, lookup: NodeLookup): Promise<V1Node | undefined> {
  const { providerID, addresses } = lookup
  const matches = (n: V1Node) =>
    providerID
      ? n.spec?.providerID === providerID
      : (n.status?.addresses ?? []).some(
          (a) =>
            a.type === 'InternalIP' &&
            addresses.some((m) => m.type === 'InternalIP' && m.address === a.address),
        )
  if (lookup.nodeName) {
    const node = await kube.get<V1Node & KubeObject>(coreTypes.node, {
      name: lookup.nodeName,
    })
    if (!node) return undefined
    if (matches(node)) return node
    // Registered, not initialized yet: with an external cloud provider the kubelet registers
    // first and the cloud node manager sets spec.providerID after. No other Node carries ours.
    if (providerID && !node.spec?.providerID) return undefined
  }
  if (!providerID && addresses.length === 0) return undefined
  for await (const page of listPages<V1Node & KubeObject>(kube, coreTypes.node)) {
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
