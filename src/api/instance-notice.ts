/**
 * @module What EC2 said is about to happen (or happened) to a Machine's instance, as the EC2 notice
 * source records it on the Machine: one annotation holding the most serious notice so far. The
 * Machine reconcile reads it back into the `InstanceHealthy` condition. An annotation, not a status
 * field, so the record is not the reconcile's to overwrite and the notice reaches the Machine's
 * reconcile the way every other change does: through its watch. Pure.
 */
import { ANNOTATIONS } from './group'
import { parseJsonAnnotation } from './json-annotation'

/** The condition reasons, least serious first: a more serious notice replaces a lesser one. */
export const noticeReasons = [
  'RebalanceRecommended',
  'ScheduledMaintenance',
  'SpotInterruption',
  'InstanceStopping',
  'InstanceTerminated',
] as const

/** Why the instance is unhealthy (the `InstanceHealthy` reason). */
export type NoticeReason = (typeof noticeReasons)[number]

/** One recorded notice. */
export interface InstanceNotice {
  reason: NoticeReason
  instanceId: string
  /** The EventBridge event id, so logs can name the message. */
  eventId: string
  /** The EventBridge event's time (ISO 8601). */
  time: string
  /** When the instance is expected to go (ISO 8601), when the notice gives one. */
  deadline?: string | undefined
  /** When a scheduled change's window ends (ISO 8601), when AWS Health gives one. */
  windowEnd?: string | undefined
  /** The event's own words: the spot action, the instance state, the Health event type. */
  detail?: string | undefined
}

/**
 * The notices that list their spot offering as unavailable (a MachineClass's
 * status.unavailableOfferings reason): EC2 is taking that capacity back, so launches try the
 * offering last instead of skipping it, and a launch that succeeds there does not clear it.
 */
export const interruptionReasons: readonly string[] = ['SpotInterruption', 'RebalanceRecommended']

/** True when an unavailable offering's `reason` is an interruption's, not a launch's miss. */
export function isInterruptionReason(reason: string): boolean {
  return interruptionReasons.includes(reason)
}

/** The annotation the notice is kept in. */
export const instanceNoticeAnnotation = ANNOTATIONS.instanceNotice

/** The recorded notice on `annotations`, or undefined when none (or not readable). */
export function readInstanceNotice(
  annotations: Record<string, string> | undefined,
): InstanceNotice | undefined {
  const value = parseJsonAnnotation(annotations, instanceNoticeAnnotation)
  return isInstanceNotice(value) ? value : undefined
}

// Checked by hand, not with zod: the Machine's status reads this on every reconcile, and the
// worker starts without zod (test/unit/cli/function-bundles.test.ts).
function isInstanceNotice(value: unknown): value is InstanceNotice {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  const optional = (x: unknown) => x === undefined || typeof x === 'string'
  return (
    noticeReasons.includes(v.reason as NoticeReason) &&
    typeof v.instanceId === 'string' &&
    typeof v.eventId === 'string' &&
    typeof v.time === 'string' &&
    !Number.isNaN(Date.parse(v.time)) &&
    optional(v.deadline) &&
    optional(v.windowEnd) &&
    optional(v.detail)
  )
}

/** The annotation value for `notice`. */
export function formatInstanceNotice(notice: InstanceNotice): string {
  return JSON.stringify(notice)
}

/**
 * How long a notice counts past the moment it warned of (a spot interruption's two minutes, the
 * end of a maintenance window, else its start; a stop or termination's own time). An instance
 * still there by then survived it: the notice is history, and a later deletion drains as usual.
 * Long enough for EC2 to act late (its warnings are best effort, and a window's work can run on).
 */
export const noticeGraceMs = 15 * 60_000

/**
 * When `notice` stops counting (ms since the epoch), or undefined while it names no moment (a
 * rebalance recommendation, a Health event without a start): such a notice counts until the
 * instance it names is replaced.
 */
export function noticeExpiresAtMs(notice: InstanceNotice): number | undefined {
  const moment =
    notice.reason === 'InstanceStopping' || notice.reason === 'InstanceTerminated'
      ? (notice.deadline ?? notice.time)
      : (notice.windowEnd ?? notice.deadline)
  const ms = moment ? Date.parse(moment) : Number.NaN
  return Number.isNaN(ms) ? undefined : ms + noticeGraceMs
}

/**
 * Whether `incoming` replaces `recorded` at `now`: any newer notice once the recorded one has
 * expired, else a notice about another instance when it is newer, else a more serious one, else a
 * later one of the same seriousness. A duplicate, a late lesser notice (a rebalance recommendation
 * after the interruption) or an older one changes nothing.
 */
export function supersedes(
  incoming: InstanceNotice,
  recorded: InstanceNotice | undefined,
  now: Date,
): boolean {
  if (!recorded) return true
  const newer = Date.parse(incoming.time) > Date.parse(recorded.time)
  const expiresAt = noticeExpiresAtMs(recorded)
  if (expiresAt !== undefined && now.getTime() >= expiresAt) return newer
  if (incoming.instanceId !== recorded.instanceId) return newer
  const rank = (n: InstanceNotice) => noticeReasons.indexOf(n.reason)
  if (rank(incoming) !== rank(recorded)) return rank(incoming) > rank(recorded)
  return newer
}

const describe: Record<NoticeReason, string> = {
  RebalanceRecommended:
    'EC2 recommends rebalancing: the spot instance is at elevated risk of interruption',
  ScheduledMaintenance: 'AWS Health scheduled maintenance for the instance',
  SpotInterruption: 'EC2 will interrupt the spot instance',
  InstanceStopping: 'The instance is stopping',
  InstanceTerminated: 'The instance is terminating',
}

/** What a notice says, for the InstanceHealthy message and the Event: its time and deadline. */
export function describeInstanceNotice(notice: InstanceNotice): string {
  const detail = notice.detail ? ` (${notice.detail})` : ''
  const deadline = notice.deadline ? `; the instance goes at ${notice.deadline}` : ''
  return `${describe[notice.reason]}${detail}: ${notice.instanceId}, notice of ${notice.time}${deadline}`
}
