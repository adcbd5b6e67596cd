import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseEc2Notice } from '../../../../src/bus/ec2-notices/eventbridge-events'

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/ec2-notices/${name}.json`, import.meta.url), 'utf8')
const instanceId = 'i-1234567890abcdef0'

describe('parseEc2Notice on the documented EventBridge events', () => {
  it('a spot interruption warning: two minutes from the event time, with its action', () => {
    expect(parseEc2Notice(fixture('spot-interruption'))).toEqual({
      type: 'notices',
      origin: {
        source: 'aws.ec2',
        expectedSource: 'aws.ec2',
        account: '123456789012',
        region: 'eu-west-1',
      },
      notices: [
        {
          reason: 'SpotInterruption',
          instanceId,
          eventId: '12345678-1234-1234-1234-123456789012',
          time: '2026-12-04T19:00:00.000Z',
          deadline: '2026-12-04T19:02:00.000Z',
          detail: 'action terminate',
        },
      ],
    })
  })

  it('a rebalance recommendation: no deadline', () => {
    const parsed = parseEc2Notice(fixture('rebalance-recommendation'))
    expect(parsed).toMatchObject({ notices: [{ reason: 'RebalanceRecommended', instanceId }] })
    expect(parsed.type === 'notices' && parsed.notices[0]?.deadline).toBeUndefined()
  })

  it('a state change to shutting-down is InstanceTerminated; to running, nothing to record', () => {
    expect(parseEc2Notice(fixture('state-change-shutting-down'))).toMatchObject({
      notices: [{ reason: 'InstanceTerminated', instanceId, detail: 'state shutting-down' }],
    })
    expect(parseEc2Notice(fixture('state-change-running'))).toEqual({
      type: 'ignored',
      reason: 'state-not-stopping',
    })
  })

  it.each([
    ['stopping', 'InstanceStopping'],
    ['stopped', 'InstanceStopping'],
    ['terminated', 'InstanceTerminated'],
  ])('a state change to %s is %s', (state, reason) => {
    const body = fixture('state-change-running').replace('"running"', `"${state}"`)
    expect(parseEc2Notice(body)).toMatchObject({ notices: [{ reason }] })
  })

  it('an AWS Health EC2 scheduled change: one notice per affected instance, deadline at its start', () => {
    expect(parseEc2Notice(fixture('health-scheduled-retirement'))).toMatchObject({
      origin: { source: 'aws.health', expectedSource: 'aws.health' },
      notices: [
        {
          reason: 'ScheduledMaintenance',
          instanceId,
          deadline: '2026-12-18T09:00:00.000Z',
          windowEnd: '2026-12-18T17:00:00.000Z',
          detail: 'AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED',
        },
      ],
    })
  })

  it('a closed AWS Health event withdraws its scheduled change for the instances it names', () => {
    const closed = fixture('health-scheduled-retirement').replace('"upcoming"', '"closed"')
    expect(parseEc2Notice(closed)).toEqual({
      type: 'closed',
      origin: expect.objectContaining({ source: 'aws.health', expectedSource: 'aws.health' }),
      instanceIds: [instanceId],
      detail: 'AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED',
    })
  })

  it.each([
    ['a spot warning', 'spot-interruption', '"aws.ec2"', 'aws.ec2'],
    ['a Health event', 'health-scheduled-retirement', '"aws.health"', 'aws.health'],
  ])(
    '%s from another source is read, naming the source it is documented with',
    (_what, name, source, expected) => {
      const body = fixture(name).replace(`"source": ${source}`, '"source": "my.app"')
      expect(parseEc2Notice(body)).toMatchObject({
        type: expect.stringMatching(/notices|closed/),
        origin: { source: 'my.app', expectedSource: expected },
      })
    },
  )

  it('a Health event about another service or not a scheduled change is ignored', () => {
    const rds = fixture('health-scheduled-retirement').replace(
      '"service": "EC2"',
      '"service": "RDS"',
    )
    expect(parseEc2Notice(rds)).toMatchObject({ type: 'ignored' })
    const issue = fixture('health-scheduled-retirement').replace('"scheduledChange"', '"issue"')
    expect(parseEc2Notice(issue)).toMatchObject({ type: 'ignored' })
  })

  it.each([
    ['not JSON', '{"detail-type": ', 'the body is not JSON'],
    ['another event', '{"detail-type": "Object Created"}', 'detail-type'],
    [
      'a bad instance id',
      fixture('spot-interruption').replaceAll(instanceId, 'i-NOPE'),
      'detail.instance-id',
    ],
    ['no time', fixture('spot-interruption').replace(/"time": "[^"]+",/, ''), 'time'],
  ])('%s is malformed, naming the field and never a value', (_what, body, field) => {
    const parsed = parseEc2Notice(body)
    expect(parsed.type).toBe('malformed')
    expect(parsed.type === 'malformed' && parsed.problem).toContain(field)
    expect(JSON.stringify(parsed)).not.toContain('NOPE')
  })
})
