/**
 * @module What the deletion sequence observes each pass: the Node (one last lookup by providerID
 * when unlinked), whether the instance is gone, volumes still attached, and the hooks and timers
 * recorded on the Machine.
 */
import type { V1Node } from '@kubernetes/client-node'
import { parseDurationMs } from '../../api/shared/duration'
import { listPages } from '../../kube/paged-list'
import { coreTypes, type KubeObject, type ResourceType } from '../../kube/resource'
import { toActuatorMachine } from '../../providers/machine'
import { type DeletionProvider, deletionBlocked } from './deletion'
import type { DeletionObservation } from './deletion-plan'
import { configurationRetryMs, type MachineDeps } from './machine-deps'
import type { MachineScope } from './machine-scope'
import { findNode } from './node-linking'

const volumeAttachmentType: ResourceType = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'VolumeAttachment',
  plural: 'volumeattachments',
  namespaced: false,
}
export async function currentNode(
  deps: MachineDeps,
  scope: MachineScope,
): Promise<V1Node | undefined> {
  const nodeRef = scope.machine.status?.nodeRef
  if (nodeRef)
    return await deps.kube.get<V1Node & KubeObject>(coreTypes.node, { name: nodeRef.name })
  // One last lookup, so a Node that joined just before deletion is still drained and removed.
  const providerID = scope.machine.spec.providerID
  return providerID ? await findNode(deps, providerID, []) : undefined
}

/**
 * Whether the instance is gone; undefined (deletion waits) when the provider is unavailable and an
 * instance may exist. Without a providerID and a provider nothing was ever created.
 */
export async function isInstanceGone(
  deps: MachineDeps,
  scope: MachineScope,
  provider: DeletionProvider,
): Promise<boolean | undefined> {
  if (!('problem' in provider)) {
    try {
      return !(await provider.actuator.exists(provider.ctx, toActuatorMachine(scope.machine)))
    } catch (error) {
      if (!deletionBlocked(deps, scope, error)) throw error
      return undefined
    }
  }
  if (!scope.machine.spec.providerID) return true
  scope.deleting = { reason: 'ProviderUnavailable', message: provider.problem }
  scope.requeueAfterMs.push(configurationRetryMs)
  return undefined
}

export async function observeDeletion(
  deps: MachineDeps,
  scope: MachineScope,
  known: {
    drained: boolean
    volumesDetached: boolean
    node: V1Node | undefined
    instanceGone: boolean
  },
): Promise<DeletionObservation> {
  const machine = scope.machine
  const node = known.node
  const timeout = (value: string | undefined) => (value ? (parseDurationMs(value) ?? 0) : 0)
  return {
    annotations: machine.metadata.annotations ?? {},
    specHooks: {
      preDrain: (machine.spec.lifecycleHooks?.preDrain ?? []).map((h) => h.name),
      preTerminate: (machine.spec.lifecycleHooks?.preTerminate ?? []).map((h) => h.name),
    },
    timers: { ...machine.status?.deletion, ...scope.deletionTimers },
    timeoutsMs: {
      nodeDrain: timeout(machine.spec.nodeDrainTimeout),
      nodeVolumeDetach: timeout(machine.spec.nodeVolumeDetachTimeout),
    },
    drained: known.drained,
    volumesDetached: known.volumesDetached,
    ...(node
      ? {
          node: {
            name: node.metadata?.name ?? '',
            unreachable:
              node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'Unknown',
            attachedVolumes: known.volumesDetached ? [] : await attachedVolumes(deps, node),
          },
        }
      : {}),
    instanceGone: known.instanceGone,
  }
}

/** Volumes the Node reports attached plus VolumeAttachments still bound to it. */
async function attachedVolumes(deps: MachineDeps, node: V1Node): Promise<string[]> {
  const names = new Set((node.status?.volumesAttached ?? []).map((v) => v.name))
  const pages = listPages<
    KubeObject & { spec?: { nodeName?: string }; status?: { attached?: boolean } }
  >(deps.kube, volumeAttachmentType)
  for await (const page of pages) {
    for (const va of page.items) {
      if (va.spec?.nodeName === node.metadata?.name && va.status?.attached)
        names.add(va.metadata?.name ?? '')
    }
  }
  return [...names].sort()
}
