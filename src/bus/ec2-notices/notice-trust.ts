/**
 * @module Whether an EC2 notice can be about the Machine it names, before it may drain anything:
 * anyone who can send to the queue (a mis-scoped EventBridge rule of another account, a shared
 * queue, a tool pointed at the wrong queue) can write any body, so the event's own `source`,
 * `account` and `region` must be those of the Machine's instance, and the instance must be the
 * one the Machine records as its own. A notice past its own deadline is true but too late to act
 * on: a drain it started could not finish. Pure.
 */
import type { InstanceNotice } from '../../api/instance-notice'
import type { NoticeOrigin } from './eventbridge-events'

/** Why a notice is not acted on: the metric's `outcome` label. */
export type Distrust = 'wrong-source' | 'wrong-account' | 'wrong-region' | 'not-current-instance'

/** Where a Machine's instance is, as its look-up found it (instance-owner.ts). */
export interface NoticeSubject {
  /** The account EC2 says owns the instance. */
  account?: string | undefined
  /** The region its instance was launched in. */
  region?: string | undefined
  /** The instance the Machine records as its own, once it has recorded one. */
  recordedInstanceId?: string | undefined
}

/** The queue's own account and region: what a subject that says nothing is taken to be in. */
export interface QueueHome {
  account: string
  region: string
}

/** The first field that does not match, with what was expected; undefined when the notice may act. */
export interface Mismatch {
  outcome: Distrust
  field: 'source' | 'account' | 'region' | 'detail.instance-id'
  expected: string
  /** What the event says, when it is of the field's shape (never free text from the body). */
  got?: string | undefined
}

const shapes: Record<Mismatch['field'], RegExp> = {
  source: /^aws\.[a-z0-9-]{1,32}$/,
  account: /^\d{12}$/,
  region: /^[a-z]{2}(-[a-z]+)+-\d+$/,
  'detail.instance-id': /^i-[0-9a-f]{8,17}$/,
}

function mismatch(
  outcome: Distrust,
  field: Mismatch['field'],
  expected: string,
  got: string | undefined,
): Mismatch {
  return { outcome, field, expected, got: got && shapes[field].test(got) ? got : undefined }
}

/** Whether `origin` may speak of `instanceId` of `subject` (see the module comment). */
export function noticeMismatch(
  origin: NoticeOrigin,
  instanceId: string,
  subject: NoticeSubject,
  home: QueueHome,
): Mismatch | undefined {
  if (origin.source !== origin.expectedSource)
    return mismatch('wrong-source', 'source', origin.expectedSource, origin.source)
  const account = subject.account ?? home.account
  if (origin.account !== account)
    return mismatch('wrong-account', 'account', account, origin.account)
  const region = subject.region ?? home.region
  if (origin.region !== region) return mismatch('wrong-region', 'region', region, origin.region)
  const recorded = subject.recordedInstanceId
  if (recorded && recorded !== instanceId)
    return mismatch('not-current-instance', 'detail.instance-id', recorded, instanceId)
  return undefined
}

/**
 * Whether `notice` arrived after the moment it warns of (as of `now`): a spot interruption past
 * its two minutes, a scheduled change whose window is over. Such a notice is recorded as an Event
 * but starts no drain and no replacement; the instance's own state says what became of it.
 */
export function arrivedTooLate(notice: InstanceNotice, now: Date): boolean {
  const until =
    notice.reason === 'SpotInterruption'
      ? notice.deadline
      : notice.reason === 'ScheduledMaintenance'
        ? notice.windowEnd
        : undefined
  const ms = until ? Date.parse(until) : Number.NaN
  return !Number.isNaN(ms) && now.getTime() > ms
}
