/**
 * @module The node phase: find the Node that joined for this Machine (by providerID, the internal
 * IP as a fallback for providers without one), record it, and keep the labels, annotations and
 * taints the Machine owns on it.
 */
import type { V1Node } from '@kubernetes/client-node'
import type { Machine } from '../../api/v1beta1/machine'
import { listPages } from '../../kube/paged-list'
import { coreTypes, type KubeObject } from '../../kube/resource'
import type { NodeAddress } from '../../providers/actuator'
import { findCondition } from '../shared/conditions'
import { defaultNodeLookupRetryMs, type MachineDeps } from './machine-deps'
import type { MachineScope } from './machine-scope'
import { planNodeSync } from './node-sync'
import { recordEvent } from './provider-context'

/** Finds or re-reads the Machine's Node and syncs what the Machine owns on it. */
export async function reconcileNode(deps: MachineDeps, scope: MachineScope): Promise<void> {
  const { machine } = scope
  const providerID = machine.spec.providerID ?? scope.infrastructure?.providerID
  const nodeRef = machine.status?.nodeRef
  let node: V1Node | undefined
  if (nodeRef) {
    node = await deps.kube.get<V1Node & KubeObject>(coreTypes.node, { name: nodeRef.name })
    if (!node || (nodeRef.uid && node.metadata?.uid !== nodeRef.uid)) {
      scope.nodeGone = true
      const wasGone =
        findCondition(machine.status?.conditions, 'NodeHealthy')?.reason === 'NodeNotFound'
      if (!wasGone) {
        recordEvent(
          deps,
          machine,
          'Warning',
          'NodeNotFound',
          `Node ${nodeRef.name} no longer exists`,
        )
      }
      return
    }
  } else {
    if (!providerID && !scope.infrastructure) return
    node = await findNode(deps, providerID, scope.infrastructure?.addresses ?? [])
    if (!node) {
      scope.requeueAfterMs.push(deps.nodeLookupRetryMs ?? defaultNodeLookupRetryMs)
      return
    }
    recordEvent(deps, machine, 'Normal', 'NodeLinked', `Linked to Node ${node.metadata?.name}`)
  }
  scope.node = await syncNode(deps, machine, node)
}

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
  for await (const page of listPages<V1Node & KubeObject>(deps.kube, coreTypes.node)) {
    const node = page.items.find(matches)
    if (node) return node
  }
  return undefined
}

async function syncNode(deps: MachineDeps, machine: Machine, node: V1Node): Promise<V1Node> {
  const patch = planNodeSync(
    {
      machineNamespace: machine.metadata.namespace ?? '',
      machineName: machine.metadata.name ?? '',
      labels: machine.spec.metadata?.labels ?? {},
      annotations: machine.spec.metadata?.annotations ?? {},
      taints: (machine.spec.taints ?? []).map((t) => ({
        key: t.key,
        effect: t.effect,
        ...(t.value ? { value: t.value } : {}),
      })),
    },
    node,
  )
  if (!patch) return node
  return await deps.kube.mergePatch<V1Node & KubeObject>(
    coreTypes.node,
    { name: node.metadata?.name ?? '' },
    {
      // Taints are a list a merge patch replaces whole: guard it against a concurrent writer
      // (the node lifecycle controller adds taints too).
      metadata: {
        labels: patch.labels,
        annotations: patch.annotations,
        ...(patch.taints ? { resourceVersion: node.metadata?.resourceVersion } : {}),
      },
      ...(patch.taints ? { spec: { taints: patch.taints } } : {}),
    },
  )
}
