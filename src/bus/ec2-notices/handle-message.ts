/**
 * @module One batch of queue messages, from bodies to outcomes: parse each, find the Machines of
 * every instance the batch names at once (one EC2 look-up per batch, not per message), check that
 * each notice can be about its Machine (notice-trust.ts), record it there, and cordon the Node of
 * a Machine whose instance goes within minutes (cordon-first.ts). Whether a message
 * may be deleted follows from its outcomes: every outcome but `failed` is final (recorded, already
 * there, cleared, nothing to record, not ours, not to be trusted, too late, not readable), so a
 * duplicate, late, forged, unknown or malformed message leaves the queue at once, while a failure
 * (apiserver or EC2 unreachable) leaves it for SQS to deliver again.
 */
import type { Counter } from 'prom-client'
import type { InstanceNotice } from '../../api/instance-notice'
import type { Machine } from '../../api/v1beta1/machine'
import type { Clock } from '../../clock'
import { errorMessage } from '../../errors'
import type { KubeClient } from '../../kube/kube-client'
import type { Logger } from '../../observability/logger'
import { cordonFirst } from './cordon-first'
import { type NoticeOrigin, type ParsedMessage, parseEc2Notice } from './eventbridge-events'
import {
  arrivedTooLate,
  type Distrust,
  type NoticeSubject,
  noticeMismatch,
  type QueueHome,
} from './notice-trust'
import { clearNotice, recordLateNotice, recordNotice } from './record-notice'

/** What became of one notice (or of a message without one): the metric's `outcome` label. */
export type NoticeOutcome =
  | 'recorded'
  | 'duplicate'
  | 'cleared'
  | 'too-late'
  | 'unknown-instance'
  | Distrust
  | 'ignored'
  | 'malformed'
  | 'failed'

/** A Machine an instance belongs to, with where that instance is (instance-owner.ts). */
export interface NoticeOwner extends NoticeSubject {
  machine: Machine
}

/** What handling messages needs. */
export interface HandleDeps {
  kube: KubeClient
  /**
   * The owner of each instance (undefined: none), read fresh, for a whole batch at once (the
   * aws provider's instance-owner.ts).
   */
  machinesForInstances(
    instanceIds: readonly string[],
    signal: AbortSignal,
  ): Promise<Map<string, NoticeOwner | undefined>>
  /** The queue's account and region, for an owner whose own are not known. */
  home: QueueHome
  clock: Clock
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
  const ids = parsed.flatMap((m) => instancesOf(m.parsed))
  let owners: Owners = new Map()
  if (ids.length > 0) {
    owners = await deps
      .machinesForInstances(ids, signal)
      .catch((error: unknown) => new Error(errorMessage(error)))
  }
  const lookup = owners
  return await Promise.all(parsed.map((m) => handleParsed(deps, m, lookup)))
}

type Owners = Map<string, NoticeOwner | undefined> | Error

function instancesOf(parsed: ParsedMessage): string[] {
  if (parsed.type === 'notices') return parsed.notices.map((n) => n.instanceId)
  if (parsed.type === 'closed') return parsed.instanceIds
  return []
}

async function handleParsed(
  deps: HandleDeps,
  message: { id: string; parsed: ParsedMessage },
  owners: Owners,
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
  const steps: Array<{ instanceId: string; reason: string; act: Act }> =
    parsed.type === 'notices'
      ? parsed.notices.map((notice) => ({
          instanceId: notice.instanceId,
          reason: notice.reason,
          act: (owner) => actOnNotice(deps, owner, notice),
        }))
      : parsed.instanceIds.map((instanceId) => ({
          instanceId,
          // Only AWS Health events close; what they close is a scheduled maintenance.
          reason: 'ScheduledMaintenance',
          act: (owner) => clearNotice(deps, owner.machine, instanceId, parsed.detail),
        }))
  let done = true
  for (const step of steps) {
    const outcome = await handleOne(deps, message.id, parsed.origin, step, owners)
    if (outcome === 'failed') done = false
    deps.notices.inc({ reason: step.reason, outcome })
  }
  return done
}

type Act = (owner: NoticeOwner) => Promise<NoticeOutcome>

async function actOnNotice(
  deps: HandleDeps,
  owner: NoticeOwner,
  notice: InstanceNotice,
): Promise<NoticeOutcome> {
  if (arrivedTooLate(notice, deps.clock.now())) {
    await recordLateNotice(deps, owner.machine, notice)
    return 'too-late'
  }
  const recorded = await recordNotice(deps, owner.machine, notice)
  if (recorded === 'machine-gone') return 'unknown-instance'
  // A duplicate cordons too: the run that recorded it may have died before its cordon.
  await cordonFirst(deps, owner.machine, notice)
  if (recorded === 'recorded' && deps.recorded) {
    await deps
      .recorded(owner.machine, notice)
      .catch((error: unknown) =>
        deps.log.warn(
          { instanceId: notice.instanceId, err: errorMessage(error) },
          'EC2 notice event not posted',
        ),
      )
  }
  return recorded
}

async function handleOne(
  deps: HandleDeps,
  messageId: string,
  origin: NoticeOrigin,
  step: { instanceId: string; reason: string; act: Act },
  owners: Owners,
): Promise<NoticeOutcome> {
  const fields = { messageId, instanceId: step.instanceId, reason: step.reason }
  try {
    if (owners instanceof Error) throw owners
    const owner = owners.get(step.instanceId)
    if (!owner) {
      deps.log.info({ ...fields, outcome: 'unknown-instance' }, 'EC2 notice')
      return 'unknown-instance'
    }
    const machine = `${owner.machine.metadata.namespace}/${owner.machine.metadata.name}`
    const wrong = noticeMismatch(origin, step.instanceId, owner, deps.home)
    if (wrong) {
      const { outcome, ...field } = wrong
      deps.log.warn(
        { ...fields, machine, outcome, ...field },
        `EC2 notice dropped: its ${wrong.field} does not match the Machine's instance`,
      )
      return outcome
    }
    const outcome = await step.act(owner)
    deps.log.info({ ...fields, outcome, machine }, 'EC2 notice')
    return outcome
  } catch (error) {
    deps.log.warn({ ...fields, err: errorMessage(error) }, 'EC2 notice not recorded, left queued')
    return 'failed'
  }
}
