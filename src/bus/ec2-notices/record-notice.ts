/**
 * @module Records an EC2 notice on its Machine: the instance-notice annotation, written with a
 * resourceVersion precondition (a concurrent write makes it read again and decide again), and a
 * Warning Event when the record changed. Once this resolves the notice is durable on the Machine,
 * whose watch hands it to the Machine reconcile (InstanceHealthy), so the queue message may go.
 * A closed AWS Health event removes the scheduled maintenance it announced the same way; a
 * notice that came too late to act on is only an Event.
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
import type { Clock } from '../../clock'
import { errorMessage } from '../../errors'
import { hasKubeReason } from '../../kube/errors'
import type { KubeClient } from '../../kube/kube-client'
import type { KubeObject } from '../../kube/resource'
import type { Logger } from '../../observability/logger'

/** What recording did: wrote the notice, found it (or a more serious one) there, or no Machine. */
export type RecordOutcome = 'recorded' | 'duplicate' | 'machine-gone'

/** What clearing did: removed the notice, or found nothing it announced. */
export type ClearOutcome = 'cleared' | 'duplicate'

type RecordDeps = { kube: KubeClient; log: Logger; fieldManager: string; clock: Clock }

/** A bound on write conflicts in a row; past it the message stays queued and comes back. */
const maxAttempts = 4

/** Records `notice` on `machine` (as read by the look-up); see the module comment. */
export async function recordNotice(
  deps: RecordDeps,
  machine: Machine,
  notice: InstanceNotice,
): Promise<RecordOutcome> {
  const value = formatInstanceNotice(notice)
  const written = await writeAnnotation(deps, machine, (current) =>
    supersedes(notice, readInstanceNotice(current.metadata.annotations), deps.clock.now())
      ? value
      : 'unchanged',
  )
  if (written === 'machine-gone' || written === 'unchanged') {
    return written === 'unchanged' ? 'duplicate' : written
  }
  await emit(deps, written, 'Warning', notice.reason, describeInstanceNotice(notice))
  return 'recorded'
}

/**
 * Removes the scheduled maintenance `detail` (an AWS Health event type code) announced for
 * `instanceId` from `machine`, when that is what it records; anything else stays.
 */
export async function clearNotice(
  deps: RecordDeps,
  machine: Machine,
  instanceId: string,
  detail: string,
): Promise<ClearOutcome> {
  const written = await writeAnnotation(deps, machine, (current) => {
    const recorded = readInstanceNotice(current.metadata.annotations)
    const announced =
      recorded?.reason === 'ScheduledMaintenance' &&
      recorded.instanceId === instanceId &&
      recorded.detail === detail
    return announced ? null : 'unchanged'
  })
  if (written === 'machine-gone' || written === 'unchanged') return 'duplicate'
  const message = `AWS Health closed the scheduled maintenance (${detail}) of ${instanceId}`
  await emit(deps, written, 'Normal', 'MaintenanceClosed', message)
  return 'cleared'
}

/** A Warning Event for a notice that arrived after its deadline: nothing else is written. */
export async function recordLateNotice(
  deps: RecordDeps,
  machine: Machine,
  notice: InstanceNotice,
): Promise<void> {
  const message = `${describeInstanceNotice(notice)}; it arrived after that, so nothing is drained or replaced for it`
  await emit(deps, machine, 'Warning', 'NoticeTooLate', message)
}

/**
 * Sets the notice annotation to what `decide` says for the Machine as it is now (null removes
 * it), under a resourceVersion precondition, reading again after a conflict.
 */
async function writeAnnotation(
  deps: RecordDeps,
  machine: Machine,
  decide: (current: Machine) => string | null | 'unchanged',
): Promise<Machine | 'unchanged' | 'machine-gone'> {
  const ref = { namespace: machine.metadata.namespace ?? '', name: machine.metadata.name ?? '' }
  let current: Machine | undefined = machine
  for (let attempt = 1; ; attempt++) {
    if (!current) return 'machine-gone'
    const value = decide(current)
    if (value === 'unchanged') return 'unchanged'
    try {
      return await deps.kube.mergePatch<Machine>(machineApiTypes.machine, ref, {
        metadata: {
          resourceVersion: current.metadata.resourceVersion,
          annotations: { [instanceNoticeAnnotation]: value },
        },
      })
    } catch (error) {
      if (!hasKubeReason(error, 'Conflict', 'NotFound') || attempt >= maxAttempts) throw error
      current = await deps.kube.get<Machine>(machineApiTypes.machine, ref)
      // Deleted and created again under the same name: not the Machine the instance belongs to.
      if (current && current.metadata.uid !== machine.metadata.uid) return 'machine-gone'
    }
  }
}

async function emit(
  deps: RecordDeps,
  machine: Machine,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
): Promise<void> {
  await deps.kube
    .recordEvent({
      regarding: machine as KubeObject,
      type,
      reason,
      message,
      reportingController: deps.fieldManager,
    })
    // The notice is recorded; a lost Event (a hint) must not bring the message back.
    .catch((error: unknown) =>
      deps.log.warn({ err: errorMessage(error), reason }, 'could not record an Event'),
    )
}
