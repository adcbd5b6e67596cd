/**
 * @module Which recorded EC2 notice (src/api/instance-notice.ts) makes a Machine leave, and how
 * urgently. Read by the MachineSet (replace the Machine: machine-set/interruption-plan.ts), by the
 * Machine's deletion (stop evicting at the notice's deadline: machine/deletion.ts) and by a
 * standalone Machine that opted in to being deleted (machine/plan.ts). Pure.
 */
import { ANNOTATIONS } from '../../api/group'
import {
  type InstanceNotice,
  noticeExpiresAtMs,
  readInstanceNotice,
} from '../../api/instance-notice'

/**
 * A notice due within this is acted on at once, whatever a set's surge room or its replacement's
 * readiness: a drain needs the time (the spot warning gives 2 minutes; a scheduled maintenance
 * announced days ahead is replaced at the set's pace until it comes this close).
 */
export const urgentWithinMs = 10 * 60_000

/** What a notice asks of its Machine. */
export interface Interruption {
  notice: InstanceNotice
  /** Leave now: due within urgentWithinMs, or the instance is already stopping or terminating. */
  urgent: boolean
  /** When a notice not yet urgent becomes so (ms since the epoch); none for a rebalance. */
  urgentAtMs?: number | undefined
  /** When draining must stop (ms since the epoch): the instance goes then. */
  drainDeadlineMs?: number | undefined
}

/** How a rebalance recommendation is taken (a set's spec.interruption.rebalanceRecommendation). */
export type RebalanceAction = 'Record' | 'Replace'

/**
 * The notice that applies to `machine` at `now`: recorded, about the instance its providerID
 * names (a notice about an instance it no longer has is history, not its health), and not past
 * its expiry (noticeExpiresAtMs).
 */
export function currentInstanceNotice(
  machine: {
    metadata: { annotations?: Record<string, string> | undefined }
    spec?: { providerID?: string | undefined } | undefined
  },
  now: Date,
): InstanceNotice | undefined {
  const notice = readInstanceNotice(machine.metadata.annotations)
  const providerID = machine.spec?.providerID
  if (!notice || (providerID && !providerID.endsWith(`/${notice.instanceId}`))) return undefined
  const expiresAt = noticeExpiresAtMs(notice)
  if (expiresAt !== undefined && now.getTime() >= expiresAt) return undefined
  return notice
}

/**
 * The interruption `machine` is under at `now`, or undefined when its notice (if any) asks for
 * nothing: a rebalance recommendation unless `rebalance` is Replace.
 */
export function interruptionOf(
  machine: Parameters<typeof currentInstanceNotice>[0],
  rebalance: RebalanceAction,
  now: Date,
): Interruption | undefined {
  const notice = currentInstanceNotice(machine, now)
  if (!notice) return undefined
  switch (notice.reason) {
    case 'RebalanceRecommended':
      return rebalance === 'Replace' ? { notice, urgent: false } : undefined
    case 'InstanceStopping':
    case 'InstanceTerminated': {
      // Already happening: nothing is left to wait for; drain no longer than the event allows.
      const at = Date.parse(notice.deadline ?? notice.time)
      return { notice, urgent: true, drainDeadlineMs: at }
    }
    case 'SpotInterruption':
    case 'ScheduledMaintenance': {
      const due = Date.parse(notice.deadline ?? '')
      // A Health event without a start time: replaced at the set's pace, never rushed.
      if (Number.isNaN(due)) return { notice, urgent: false }
      const urgentAtMs = due - urgentWithinMs
      return { notice, urgent: now.getTime() >= urgentAtMs, urgentAtMs, drainDeadlineMs: due }
    }
  }
}

/** True when a standalone Machine opted in to being deleted on an interruption. */
export function deletesOnInterruption(machine: {
  metadata: { annotations?: Record<string, string> | undefined }
}): boolean {
  return machine.metadata.annotations?.[ANNOTATIONS.deleteOnInterruption] === 'true'
}
