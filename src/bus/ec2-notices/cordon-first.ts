/**
 * @module The cordon an imminent interruption gets at once. A spot interruption warning leaves 2
 * minutes; an instance already stopping or terminated, less. Once such a notice is recorded, the
 * notice source marks the Machine's Node unschedulable itself, before any reconcile: no new pod
 * lands on the Node while the set places the replacement and the Machine's drain waits its turn (a
 * storm of warnings queues hundreds of both; the drain's own cordon is then a no-op). Scheduled
 * maintenance (announced days ahead) and a rebalance recommendation cordon nothing here: the set
 * decides whether and when their Machines go. A cordon that fails is logged and never fails the
 * notice: the record is what counts, and the drain cordons anyway.
 */
import type { InstanceNotice, NoticeReason } from '../../api/instance-notice'
import type { Machine } from '../../api/v1beta1/machine'
import { kubeDrainClient } from '../../drain/kube-drain-client'
import { errorMessage } from '../../errors'
import { hasKubeReason } from '../../kube/errors'
import type { KubeClient } from '../../kube/kube-client'
import type { Logger } from '../../observability/logger'

const cordonsAtOnce: ReadonlySet<NoticeReason> = new Set([
  'SpotInterruption',
  'InstanceStopping',
  'InstanceTerminated',
])

/**
 * Cordons the Node of `machine` when `notice` is imminent; returns the Node's name when it did
 * (undefined: no Node linked, not imminent, or the cordon failed).
 */
export async function cordonFirst(
  deps: { kube: KubeClient; log: Logger },
  machine: Machine,
  notice: InstanceNotice,
): Promise<string | undefined> {
  const node = machine.status?.nodeRef?.name
  if (!node || !cordonsAtOnce.has(notice.reason)) return undefined
  try {
    await kubeDrainClient(deps.kube).cordon(node)
    return node
  } catch (error) {
    if (!hasKubeReason(error, 'NotFound')) {
      deps.log.warn(
        { instanceId: notice.instanceId, node, err: errorMessage(error) },
        'EC2 notice recorded, the cordon failed (the drain cordons)',
      )
    }
    return undefined
  }
}
