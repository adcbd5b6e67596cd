/**
 * @module The EventBridge events EC2 and AWS Health send about instances, as AWS documents them,
 * parsed with zod into notices machine-api records on Machines. Unknown fields are ignored (AWS
 * adds them); a body that is not one of these events is `malformed`, one that is but says nothing
 * to act on (a state change to running, a Health event about another service) is `ignored`. Pure.
 */
import { z } from 'zod'
import type { InstanceNotice, NoticeReason } from '../../api/instance-notice'

// `source`, `account` and `region` are read as given and checked against what the event can be
// about (notice-trust.ts): a mismatch is a forged or misrouted event, not an unreadable one.
const envelope = {
  version: z.string(),
  id: z.string().min(1),
  source: z.string(),
  account: z.string().optional(),
  time: z.iso.datetime(),
  region: z.string().optional(),
  resources: z.array(z.string()).optional(),
}
const instanceId = z.string().regex(/^i-[0-9a-f]{8,17}$/)

/** detail-type "EC2 Spot Instance Interruption Warning": two minutes before the action. */
const spotInterruption = z.object({
  ...envelope,
  'detail-type': z.literal('EC2 Spot Instance Interruption Warning'),
  detail: z.object({ 'instance-id': instanceId, 'instance-action': z.string() }),
})

/** detail-type "EC2 Instance Rebalance Recommendation": elevated risk of interruption. */
const rebalance = z.object({
  ...envelope,
  'detail-type': z.literal('EC2 Instance Rebalance Recommendation'),
  detail: z.object({ 'instance-id': instanceId }),
})

/** detail-type "EC2 Instance State-change Notification". */
const stateChange = z.object({
  ...envelope,
  'detail-type': z.literal('EC2 Instance State-change Notification'),
  detail: z.object({ 'instance-id': instanceId, state: z.string() }),
})

/** detail-type "AWS Health Event" (source aws.health): scheduled changes carry start times. */
const healthEvent = z.object({
  ...envelope,
  'detail-type': z.literal('AWS Health Event'),
  detail: z.object({
    service: z.string(),
    eventTypeCode: z.string(),
    eventTypeCategory: z.string(),
    /** RFC 1123 in the documented samples ("Sat, 05 Feb 2023 03:00:00 GMT"). */
    startTime: z.string().optional(),
    endTime: z.string().optional(),
    /** `open`, `upcoming` or `closed`: a closed event withdraws what the open one said. */
    statusCode: z.string().optional(),
    affectedEntities: z.array(z.object({ entityValue: z.string() })).optional(),
  }),
})

const eventBridgeEvent = z.discriminatedUnion('detail-type', [
  spotInterruption,
  rebalance,
  stateChange,
  healthEvent,
])

/** Where an event says it comes from, as written on it (checked by notice-trust.ts). */
export interface NoticeOrigin {
  source: string
  /** The source the event's detail-type is documented with: aws.ec2, or aws.health. */
  expectedSource: string
  account?: string | undefined
  region?: string | undefined
}

/** What one queue message says. */
export type ParsedMessage =
  /** One notice per instance the event names. */
  | { type: 'notices'; origin: NoticeOrigin; notices: InstanceNotice[] }
  /**
   * An AWS Health event closed: the scheduled change it announced (`detail`, the event type code)
   * no longer applies to these instances.
   */
  | { type: 'closed'; origin: NoticeOrigin; instanceIds: string[]; detail: string }
  /** A well-formed event with nothing to record; `reason` for the metric label and the log. */
  | { type: 'ignored'; reason: string }
  /** Not JSON or not one of the documented events; `problem` names the first bad field, never a value. */
  | { type: 'malformed'; problem: string }

/** How long a spot instance has after its interruption warning. */
export const spotWarningMs = 120_000

const stoppingStates: Record<string, NoticeReason> = {
  stopping: 'InstanceStopping',
  stopped: 'InstanceStopping',
  'shutting-down': 'InstanceTerminated',
  terminated: 'InstanceTerminated',
}

/** Parses a message body; see ParsedMessage. */
export function parseEc2Notice(body: string): ParsedMessage {
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return { type: 'malformed', problem: 'the body is not JSON' }
  }
  const parsed = eventBridgeEvent.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return { type: 'malformed', problem: `${issue?.path.join('.') || 'body'}: ${issue?.code}` }
  }
  const event = parsed.data
  const base = { eventId: event.id, time: new Date(event.time).toISOString() }
  const ec2Origin = originOf(event, 'aws.ec2')
  const one = (notice: InstanceNotice): ParsedMessage => ({
    type: 'notices',
    origin: ec2Origin,
    notices: [notice],
  })
  switch (event['detail-type']) {
    case 'EC2 Spot Instance Interruption Warning': {
      const deadline = new Date(Date.parse(event.time) + spotWarningMs).toISOString()
      const id = event.detail['instance-id']
      const detail = `action ${event.detail['instance-action']}`
      return one({ ...base, reason: 'SpotInterruption', instanceId: id, deadline, detail })
    }
    case 'EC2 Instance Rebalance Recommendation':
      return one({
        ...base,
        reason: 'RebalanceRecommended',
        instanceId: event.detail['instance-id'],
      })
    case 'EC2 Instance State-change Notification': {
      const state = event.detail.state
      const reason = stoppingStates[state]
      if (!reason) return { type: 'ignored', reason: 'state-not-stopping' }
      const id = event.detail['instance-id']
      return one({ ...base, reason, instanceId: id, detail: `state ${state}` })
    }
    case 'AWS Health Event':
      return healthNotices(event, base)
  }
}

function originOf(
  event: { source: string; account?: string | undefined; region?: string | undefined },
  expectedSource: string,
): NoticeOrigin {
  return { source: event.source, expectedSource, account: event.account, region: event.region }
}

function healthNotices(
  event: z.infer<typeof healthEvent>,
  base: { eventId: string; time: string },
): ParsedMessage {
  const { detail } = event
  if (detail.service !== 'EC2' || detail.eventTypeCategory !== 'scheduledChange')
    return { type: 'ignored', reason: 'health-not-ec2-scheduled' }
  // The affected entities name the instances; `resources` repeats them in the documented samples.
  const named = detail.affectedEntities?.map((e) => e.entityValue) ?? event.resources ?? []
  const ids = [...new Set(named.filter((v) => instanceId.safeParse(v).success))]
  if (ids.length === 0) return { type: 'ignored', reason: 'health-no-instance' }
  const origin = originOf(event, 'aws.health')
  if (detail.statusCode === 'closed')
    return { type: 'closed', origin, instanceIds: ids, detail: detail.eventTypeCode }
  const deadline = rfc1123(detail.startTime)
  const windowEnd = rfc1123(detail.endTime)
  return {
    type: 'notices',
    origin,
    notices: ids.map((id) => ({
      ...base,
      ...(deadline ? { deadline } : {}),
      ...(windowEnd ? { windowEnd } : {}),
      reason: 'ScheduledMaintenance' as const,
      instanceId: id,
      detail: detail.eventTypeCode,
    })),
  }
}

/** An AWS Health time (RFC 1123 in the documented samples) as ISO 8601, or undefined. */
function rfc1123(value: string | undefined): string | undefined {
  const ms = value ? Date.parse(value) : Number.NaN
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString()
}
