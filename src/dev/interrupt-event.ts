/**
 * @module The EventBridge events `machine-api dev interrupt` sends, in the shapes AWS documents
 * (the same as test/fixtures/ec2-notices): what EC2 or AWS Health would put on the queue for one
 * instance. Pure.
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/rebalance-recommendations.html
 * https://docs.aws.amazon.com/health/latest/ug/cloudwatch-events-health.html
 */

/** The notices one can send. */
export const interruptKinds = [
  'spot',
  'rebalance',
  'maintenance',
  'stopping',
  'terminated',
] as const

/** One of `interruptKinds`. */
export type InterruptKind = (typeof interruptKinds)[number]

/** Where the event says it comes from. */
export interface EventOrigin {
  instanceId: string
  region: string
  account: string
  /** The EventBridge event id. */
  id: string
  now: Date
}

/** How far ahead a scheduled maintenance starts (AWS Health gives days; a demo cannot wait). */
export const maintenanceLeadMs = 15 * 60_000

/** The message body for `kind` about `origin.instanceId`. */
export function interruptionEvent(kind: InterruptKind, origin: EventOrigin): string {
  const { instanceId, region, account } = origin
  // EventBridge times carry whole seconds.
  const time = `${origin.now.toISOString().slice(0, 19)}Z`
  const arn = `arn:aws:ec2:${region}:${account}:instance/${instanceId}`
  const base = { version: '0', id: origin.id, account, time, region }
  const ec2 = (detailType: string, detail: Record<string, string>) => ({
    ...base,
    'detail-type': detailType,
    source: 'aws.ec2',
    resources: [arn],
    detail: { 'instance-id': instanceId, ...detail },
  })
  switch (kind) {
    case 'spot':
      return JSON.stringify(
        ec2('EC2 Spot Instance Interruption Warning', { 'instance-action': 'terminate' }),
      )
    case 'rebalance':
      return JSON.stringify(ec2('EC2 Instance Rebalance Recommendation', {}))
    case 'stopping':
      return JSON.stringify(ec2('EC2 Instance State-change Notification', { state: 'stopping' }))
    case 'terminated':
      return JSON.stringify(
        ec2('EC2 Instance State-change Notification', { state: 'shutting-down' }),
      )
    case 'maintenance': {
      const start = new Date(origin.now.getTime() + maintenanceLeadMs)
      const end = new Date(start.getTime() + 2 * 3_600_000)
      const code = 'AWS_EC2_SYSTEM_MAINTENANCE_EVENT'
      return JSON.stringify({
        ...base,
        'detail-type': 'AWS Health Event',
        source: 'aws.health',
        resources: [instanceId],
        detail: {
          eventArn: `arn:aws:health:${region}::event/EC2/${code}/${code}_${origin.id}`,
          service: 'EC2',
          eventScopeCode: 'ACCOUNT_SPECIFIC',
          statusCode: 'upcoming',
          eventRegion: region,
          eventTypeCode: code,
          eventTypeCategory: 'scheduledChange',
          // RFC 1123, as AWS Health writes it.
          startTime: start.toUTCString(),
          endTime: end.toUTCString(),
          eventDescription: [
            {
              language: 'en_US',
              latestDescription:
                'Scheduled system maintenance (sent by machine-api dev interrupt).',
            },
          ],
          affectedEntities: [{ entityValue: instanceId, status: 'IMPAIRED' }],
        },
      })
    }
  }
}
