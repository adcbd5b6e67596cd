/**
 * @module One batch of queue messages, from bodies to outcomes: parse each, find the Machines of
 * every instance the batch names at once (one EC2 look-up per batch, not per message), record each
 * notice on its Machine. Whether a message may be deleted follows from its outcomes: every outcome
 * but `failed` is final (recorded, already there, nothing to record, not ours, not readable), so a
 * duplicate, late, unknown or malformed message leaves the queue at once, while a failure
 * (apiserver or EC2 unreachable) leaves it for SQS to deliver again.
 */
import type { Counter } from 'prom-client'
import type { InstanceNotice } from '../../api/instance-notice'
import type { Machine } from '../../api/v1beta1/machine'
import { errorMessage } from '../../errors'
import type { KubeClient } from '../../kube/kube-client'
import type { Logger } from '../../observability/logger'
import { type ParsedMessage, parseEc2Notice } from './eventbridge-events'
import { recordNotice } from './record-notice'

/** What became of one notice (or of a message without one): the metric's `outcome` label. */
export type NoticeOutcome =
  | 'recorded'
  | 'duplicate'
  | 'unknown-instance'
  | 'ignored'
  | 'malformed'
  | 'failed'

/** What handling messages needs. */
export interface HandleDeps {
  kube: KubeClient
  /**
   * The Machine of each instance (undefined: none), read fresh, for a whole batch at once (the
   * aws provider's instance-owner.ts).
   */
  machinesForInstances(
    instanceIds: readonly string[],
    signal: AbortSignal,
  ): Promise<Map<string, Machine | undefined>>
  log: Logger
  fieldManager: string
  /** Notices by `reason` (the condition reason, or `none`) and `outcome`. */
  notices: Counter<'reason' | 'outcome'>
  /**
   * Told of each notice once it is recorded (the Knative source posts a CloudEvent); awaited, and
   * a failure is only logged: the record is what counts.
   */
  recorded?: ((machine: Machine, notice: InstanceNotice) => Promise<void>) | undefined
}

/** One message as received. */
export interface QueueMessage {
  id: string
  body: string
}

/**
 * Handles `messages`; resolves, for each in order, true when it may be deleted. Never rejects: a
 * failed look-up fails the batch's notices, which stay queued.
 */
export async function handleMessages(
  deps: HandleDeps,
  messages: readonly QueueMessage[],
  signal: AbortSignal,
): Promise<boolean[]> {
  const parsed = messages.map((m) => ({ ...m, parsed: parseEc2Notice(m.body) }))
  const ids = parsed.flatMap((m) =>
    m.parsed.type === 'notices' ? m.parsed.notices.map((n) => n.instanceId) : [],
  )
  let owners: Map<string, Machine | undefined> | Error = new Map()
  if (ids.length > 0) {
    owners = await deps
      .machinesForInstances(ids, signal)
      .catch((error: unknown) => new Error(errorMessage(error)))
  }
  const lookup = owners
  return await Promise.all(parsed.map((m) => handleParsed(deps, m, lookup)))
}

async function handleParsed(
  deps: HandleDeps,
  message: { id: string; parsed: ParsedMessage },
  owners: Map<string, Machine | undefined> | Error,
): Promise<boolean> {
  const { parsed } = message
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
    const outcome = await handleNotice(deps, message.id, notice, owners)
    if (outcome === 'failed') done = false
    deps.notices.inc({ reason: notice.reason, outcome })
  }
  return done
}

async function handleNotice(
  deps: HandleDeps,
  messageId: string,
  notice: InstanceNotice,
  owners: Map<string, Machine | undefined> | Error,
): Promise<NoticeOutcome> {
  const fields = { messageId, eventId: notice.eventId, instanceId: notice.instanceId }
  try {
    if (owners instanceof Error) throw owners
    const machine = owners.get(notice.instanceId)
    const recorded = machine ? await recordNotice(deps, machine, notice) : 'machine-gone'
    const outcome = recorded === 'machine-gone' ? 'unknown-instance' : recorded
    const machineName = machine
      ? `${machine.metadata.namespace}/${machine.metadata.name}`
      : undefined
    if (machine && outcome === 'recorded' && deps.recorded) {
      await deps
        .recorded(machine, notice)
        .catch((error: unknown) =>
          deps.log.warn({ ...fields, err: errorMessage(error) }, 'EC2 notice event not posted'),
        )
    }
    deps.log.info({ ...fields, reason: notice.reason, outcome, machine: machineName }, 'EC2 notice')
    return outcome
  } catch (error) {
    deps.log.warn({ ...fields, err: errorMessage(error) }, 'EC2 notice not recorded, left queued')
    return 'failed'
  }
}
