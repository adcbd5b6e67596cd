import { describe, expect, it } from 'vitest'
import { parseEc2Notice } from '../../../src/bus/ec2-notices/eventbridge-events'
import {
  type InterruptKind,
  interruptionEvent,
  maintenanceLeadMs,
} from '../../../src/dev/interrupt-event'

const now = new Date('2026-12-04T19:00:00.250Z')
const origin = {
  instanceId: 'i-0aaaaaaaaaaaaaaaa',
  region: 'eu-west-1',
  account: '123456789012',
  id: 'e-1',
  now,
}

// What `dev interrupt` sends must be what the notice source reads from EventBridge: each kind
// through the real parser, to the notice the Machine records.
describe('interruptionEvent', () => {
  it.each<[InterruptKind, object]>([
    [
      'spot',
      {
        reason: 'SpotInterruption',
        time: '2026-12-04T19:00:00.000Z',
        deadline: '2026-12-04T19:02:00.000Z',
        detail: 'action terminate',
      },
    ],
    ['rebalance', { reason: 'RebalanceRecommended', time: '2026-12-04T19:00:00.000Z' }],
    [
      'maintenance',
      {
        reason: 'ScheduledMaintenance',
        deadline: new Date(Date.parse('2026-12-04T19:00:00Z') + maintenanceLeadMs).toISOString(),
        detail: 'AWS_EC2_SYSTEM_MAINTENANCE_EVENT',
      },
    ],
    ['stopping', { reason: 'InstanceStopping', detail: 'state stopping' }],
    ['terminated', { reason: 'InstanceTerminated', detail: 'state shutting-down' }],
  ])('%s reads back as its notice', (kind, expected) => {
    const parsed = parseEc2Notice(interruptionEvent(kind, origin))
    expect(parsed).toMatchObject({
      type: 'notices',
      notices: [{ instanceId: origin.instanceId, eventId: 'e-1', ...expected }],
    })
  })

  it('names the instance by ARN in resources, as EC2 does', () => {
    const event = JSON.parse(interruptionEvent('spot', origin)) as { resources: string[] }
    expect(event.resources).toEqual([
      'arn:aws:ec2:eu-west-1:123456789012:instance/i-0aaaaaaaaaaaaaaaa',
    ])
  })
})
