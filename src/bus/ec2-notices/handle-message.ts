/**
 * @module One queue message, from body to outcome: parse it, find each named instance's Machine,
 * record the notice there. Whether the message may be deleted follows from the outcomes: every
 * outcome but `failed` is final (recorded, already there, nothing to record, not ours, not
 * readable), so a duplicate, late, unknown or malformed message leaves the queue at once, while a
 * failure (apiserver or EC2 unreachable) leaves it for SQS to deliver again.
 */
import type { Counter } from 'prom-client'
import type { Machine } from '../../api/v1beta1/machine'
import { errorMessage } from '../../errors'
import type { KubeClient } from '../../kube/kube-client'
import type { Logger } from '../../observability/logger'
import { parseEc2Notice } from './eventbridge-events'
import { recordNotice } from './record-notice'

/** What became of one notice (or of a message without one): the metric's `outcome` label. */
export type NoticeOutcome =
  | 'recorded'
  | 'duplicate'
  | 'unknown-instance'
  | 'ignored'
  | 'malformed'
  | 'failed'

/** What handling a message needs. */
export interface HandleDeps {
  kube: KubeClient
  /** The Machine an instance belongs to, read fresh (the aws provider's instance-owner.ts). */
  machineForInstance(instanceId: string, signal: AbortSignal): Promise<Machine | undefined>
  log: Logger
  fieldManager: string
  /** Notices by `reason` (the condition reason, or `none`) and `outcome`. */
  notices: Counter<'reason' | 'outcome'>
}

/** Handles one message body; resolves true when the message may be deleted. Never rejects. */
export async function handleMessage(
  deps: HandleDeps,
  message: { id: string; body: string },
  signal: AbortSignal,
): Promise<boolean> {
  const parsed = parseEc2Notice(message.body)
  // The body is never logged: it is whatever reached the queue.
  if (parsed.type === 'malformed') {
    deps.notices.inc({ reason: 'none', outcome: 'malformed' })
    deps.log.warn(
      { messageId: message.id, problem: parsed.problem },
      'EC2 notice not readable, dropped',
    )
    return true
  }
  if (parsed.type === 'ignored') {
    deps.notices.inc({ reason: 'none', outcome: 'ignored' })
    deps.log.debug(
      { messageId: message.id, why: parsed.reason },
      'EC2 event with nothing to record',
    )
    return true
  }
  let done = true
  for (const notice of parsed.notices) {
    const fields = { messageId: message.id, eventId: notice.eventId, instanceId: notice.instanceId }
    let outcome: NoticeOutcome
    try {
      const machine = await deps.machineForInstance(notice.instanceId, signal)
      const recorded = machine ? await recordNotice(deps, machine, notice) : 'machine-gone'
      outcome = recorded === 'machine-gone' ? 'unknown-instance' : recorded
      const machineName = machine
        ? `${machine.metadata.namespace}/${machine.metadata.name}`
        : undefined
      deps.log.info(
        { ...fields, reason: notice.reason, outcome, machine: machineName },
        'EC2 notice',
      )
    } catch (error) {
      outcome = 'failed'
      done = false
      deps.log.warn({ ...fields, err: errorMessage(error) }, 'EC2 notice not recorded, left queued')
    }
    deps.notices.inc({ reason: notice.reason, outcome })
  }
  return done
}
