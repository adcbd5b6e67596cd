/**
 * @module Records an EC2 notice on its Machine: the instance-notice annotation, written with a
 * resourceVersion precondition (a concurrent write makes it read again and decide again), and a
 * Warning Event when the record changed. Once this resolves the notice is durable on the Machine,
 * whose watch hands it to the Machine reconcile (InstanceHealthy), so the queue message may go.
 */
import {
  describeInstanceNotice,
  formatInstanceNotice,
  type InstanceNotice,
  instanceNoticeAnnotation,
  readInstanceNotice,
  supersedes,
} from '../../api/instance-notice'
import { machineApiTypes } from '../../api/resource-types'
import type { Machine } from '../../api/v1beta1/machine'
import { errorMessage } from '../../errors'
import { hasKubeReason } from '../../kube/errors'
import type { KubeClient } from '../../kube/kube-client'
import type { KubeObject } from '../../kube/resource'
import type { Logger } from '../../observability/logger'

/** What recording did: wrote the notice, found it (or a more serious one) there, or no Machine. */
export type RecordOutcome = 'recorded' | 'duplicate' | 'machine-gone'

/** A bound on write conflicts in a row; past it the message stays queued and comes back. */
const maxAttempts = 4

/** Records `notice` on `machine` (as read by the look-up); see the module comment. */
export async function recordNotice(
  deps: { kube: KubeClient; log: Logger; fieldManager: string },
  machine: Machine,
  notice: InstanceNotice,
): Promise<RecordOutcome> {
  const ref = { namespace: machine.metadata.namespace ?? '', name: machine.metadata.name ?? '' }
  let current: Machine | undefined = machine
  for (let attempt = 1; ; attempt++) {
    if (!current) return 'machine-gone'
    if (!supersedes(notice, readInstanceNotice(current.metadata.annotations))) return 'duplicate'
    try {
      const written = await deps.kube.mergePatch<Machine>(machineApiTypes.machine, ref, {
        metadata: {
          resourceVersion: current.metadata.resourceVersion,
          annotations: { [instanceNoticeAnnotation]: formatInstanceNotice(notice) },
        },
      })
      await deps.kube
        .recordEvent({
          regarding: written as KubeObject,
          type: 'Warning',
          reason: notice.reason,
          message: describeInstanceNotice(notice),
          reportingController: deps.fieldManager,
        })
        // The notice is recorded; a lost Event (a hint) must not bring the message back.
        .catch((error: unknown) =>
          deps.log.warn(
            { err: errorMessage(error), reason: notice.reason },
            'could not record an Event',
          ),
        )
      return 'recorded'
    } catch (error) {
      if (!hasKubeReason(error, 'Conflict', 'NotFound') || attempt >= maxAttempts) throw error
      current = await deps.kube.get<Machine>(machineApiTypes.machine, ref)
      // Deleted and created again under the same name: not the Machine the instance belongs to.
      if (current && current.metadata.uid !== machine.metadata.uid) return 'machine-gone'
    }
  }
}
