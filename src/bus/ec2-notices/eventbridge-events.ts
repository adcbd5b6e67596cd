/**
 * @module The EventBridge events EC2 and AWS Health send about instances, as AWS documents them,
 * parsed with zod into notices machine-api records on Machines. Unknown fields are ignored (AWS
 * adds them); a body that is not one of these events is `malformed`, one that is but says nothing
 * to act on (a state change to running, a Health event about another service) is `ignored`. Pure.
 */
import { z } from 'zod'
import type { InstanceNotice, NoticeReason } from '../../api/instance-notice'

const envelope = {
  version: z.string(),
  id: z.string().min(1),
  account: z.string().optional(),
  time: z.iso.datetime(),
  region: z.string().optional(),
  resources: z.array(z.string()).optional(),
}
const instanceId = z.string().regex(/^i-[0-9a-f]{8,17}$/)

/** detail-type "EC2 Spot Instance Interruption Warning": two minutes before the action. */
const spotInterruption = z.object({
  ...envelope,
  source: z.literal('aws.ec2'),
  'detail-type': z.literal('EC2 Spot Instance Interruption Warning'),
  detail: z.object({ 'instance-id': instanceId, 'instance-action': z.string() }),
})

/** detail-type "EC2 Instance Rebalance Recommendation": elevated risk of interruption. */
const rebalance = z.object({
  ...envelope,
  source: z.literal('aws.ec2'),
  'detail-type': z.literal('EC2 Instance Rebalance Recommendation'),
  detail: z.object({ 'instance-id': instanceId }),
})

/** detail-type "EC2 Instance State-change Notification". */
const stateChange = z.object({
  ...envelope,
  source: z.literal('aws.ec2'),
  'detail-type': z.literal('EC2 Instance State-change Notification'),
  detail: z.object({ 'instance-id': instanceId, state: z.string() }),
})

/** detail-type "AWS Health Event" (source aws.health): scheduled changes carry start times. */
const healthEvent = z.object({
  ...envelope,
  source: z.literal('aws.health'),
  'detail-type': z.literal('AWS Health Event'),
  detail: z.object({
    service: z.string(),
    eventTypeCode: z.string(),
    eventTypeCategory: z.string(),
    /** RFC 1123 in the documented samples ("Sat, 05 Feb 2023 03:00:00 GMT"). */
    startTime: z.string().optional(),
    affectedEntities: z.array(z.object({ entityValue: z.string() })).optional(),
  }),
})

const eventBridgeEvent = z.discriminatedUnion('detail-type', [
  spotInterruption,
  rebalance,
  stateChange,
  healthEvent,
])

/** What one queue message says. */
export type ParsedMessage =
  /** One notice per instance the event names. */
  | { type: 'notices'; notices: InstanceNotice[] }
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
  switch (event['detail-type']) {
    case 'EC2 Spot Instance Interruption Warning': {
      const deadline = new Date(Date.parse(event.time) + spotWarningMs).toISOString()
      const id = event.detail['instance-id']
      const detail = `action ${event.detail['instance-action']}`
      return {
        type: 'notices',
        notices: [{ ...base, reason: 'SpotInterruption', instanceId: id, deadline, detail }],
      }
    }
    case 'EC2 Instance Rebalance Recommendation':
      return {
        type: 'notices',
        notices: [
          { ...base, reason: 'RebalanceRecommended', instanceId: event.detail['instance-id'] },
        ],
      }
    case 'EC2 Instance State-change Notification': {
      const state = event.detail.state
      const reason = stoppingStates[state]
      if (!reason) return { type: 'ignored', reason: 'state-not-stopping' }
      const id = event.detail['instance-id']
      return {
        type: 'notices',
        notices: [{ ...base, reason, instanceId: id, detail: `state ${state}` }],
      }
    }
    case 'AWS Health Event':
      return healthNotices(event, base)
  }
}

function healthNotices(
  event: z.infer<typeof healthEvent>,
  base: { eventId: string; time: string },
): ParsedMessage {
  const { detail } = event
  if (detail.service !== 'EC2' || detail.eventTypeCategory !== 'scheduledChange')
    return { type: 'ignored', reason: 'health-not-ec2-scheduled' }
  const start = detail.startTime ? Date.parse(detail.startTime) : Number.NaN
  const deadline = Number.isNaN(start) ? {} : { deadline: new Date(start).toISOString() }
  // The affected entities name the instances; `resources` repeats them in the documented samples.
  const named = detail.affectedEntities?.map((e) => e.entityValue) ?? event.resources ?? []
  const ids = [...new Set(named.filter((v) => instanceId.safeParse(v).success))]
  if (ids.length === 0) return { type: 'ignored', reason: 'health-no-instance' }
  return {
    type: 'notices',
    notices: ids.map((id) => ({
      ...base,
      ...deadline,
      reason: 'ScheduledMaintenance' as const,
      instanceId: id,
      detail: detail.eventTypeCode,
    })),
  }
}
