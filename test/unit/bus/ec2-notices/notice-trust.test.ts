import { describe, expect, it } from 'vitest'
import type { InstanceNotice } from '../../../../src/api/instance-notice'
import type { NoticeOrigin } from '../../../../src/bus/ec2-notices/eventbridge-events'
import {
  arrivedTooLate,
  type NoticeSubject,
  noticeMismatch,
} from '../../../../src/bus/ec2-notices/notice-trust'

const instanceId = 'i-0aaaaaaaaaaaaaaaa'
const home = { account: '123456789012', region: 'eu-west-1' }
const genuine: NoticeOrigin = {
  source: 'aws.ec2',
  expectedSource: 'aws.ec2',
  account: '123456789012',
  region: 'eu-west-1',
}
const launched: NoticeSubject = {
  account: '123456789012',
  region: 'eu-west-1',
  recordedInstanceId: instanceId,
}

describe('noticeMismatch: a notice acts only for the account, region and instance it can be about', () => {
  it.each<[string, NoticeOrigin, NoticeSubject, string, ReturnType<typeof noticeMismatch>]>([
    ['the genuine notice', genuine, launched, instanceId, undefined],
    [
      'another source',
      { ...genuine, source: 'my.app' },
      launched,
      instanceId,
      { outcome: 'wrong-source', field: 'source', expected: 'aws.ec2', got: undefined },
    ],
    [
      'another account',
      { ...genuine, account: '999999999999' },
      launched,
      instanceId,
      { outcome: 'wrong-account', field: 'account', expected: '123456789012', got: '999999999999' },
    ],
    [
      'no account',
      { ...genuine, account: undefined },
      launched,
      instanceId,
      { outcome: 'wrong-account', field: 'account', expected: '123456789012', got: undefined },
    ],
    [
      'another region',
      { ...genuine, region: 'us-east-1' },
      launched,
      instanceId,
      { outcome: 'wrong-region', field: 'region', expected: 'eu-west-1', got: 'us-east-1' },
    ],
    [
      'an instance the Machine does not record as its own',
      genuine,
      { ...launched, recordedInstanceId: 'i-0bbbbbbbbbbbbbbbb' },
      instanceId,
      {
        outcome: 'not-current-instance',
        field: 'detail.instance-id',
        expected: 'i-0bbbbbbbbbbbbbbbb',
        got: instanceId,
      },
    ],
    [
      'a Machine that recorded no instance yet (its launch in flight)',
      genuine,
      { ...launched, recordedInstanceId: undefined },
      instanceId,
      undefined,
    ],
    [
      'a Machine launched in another region than the queue: its own region counts',
      { ...genuine, region: 'eu-central-1' },
      { ...launched, region: 'eu-central-1' },
      instanceId,
      undefined,
    ],
    [
      "nothing recorded: the queue's account and region",
      { ...genuine, region: 'us-east-1' },
      {},
      instanceId,
      { outcome: 'wrong-region', field: 'region', expected: 'eu-west-1', got: 'us-east-1' },
    ],
    [
      "a value not of the field's shape is not repeated",
      { ...genuine, account: 'DROP TABLE' },
      launched,
      instanceId,
      { outcome: 'wrong-account', field: 'account', expected: '123456789012', got: undefined },
    ],
  ])('%s', (_what, origin, subject, id, expected) => {
    expect(noticeMismatch(origin, id, subject, home)).toEqual(expected)
  })
})

describe('arrivedTooLate: a notice past its own moment starts no drain', () => {
  const spot: InstanceNotice = {
    reason: 'SpotInterruption',
    instanceId,
    eventId: 'e1',
    time: '2026-12-04T19:00:00.000Z',
    deadline: '2026-12-04T19:02:00.000Z',
  }
  const maintenance: InstanceNotice = {
    reason: 'ScheduledMaintenance',
    instanceId,
    eventId: 'h1',
    time: '2026-12-04T12:00:00.000Z',
    deadline: '2026-12-18T09:00:00.000Z',
    windowEnd: '2026-12-18T17:00:00.000Z',
  }
  it.each<[string, InstanceNotice, string, boolean]>([
    ['a spot warning within its two minutes', spot, '2026-12-04T19:01:59.000Z', false],
    ['a spot warning past its two minutes', spot, '2026-12-04T19:02:01.000Z', true],
    ['a maintenance not yet started', maintenance, '2026-12-17T00:00:00.000Z', false],
    ['a maintenance under way', maintenance, '2026-12-18T10:00:00.000Z', false],
    ['a maintenance whose window is over', maintenance, '2026-12-18T17:00:01.000Z', true],
    [
      'a rebalance recommendation, however old',
      { ...spot, reason: 'RebalanceRecommended', deadline: undefined },
      '2027-01-01T00:00:00.000Z',
      false,
    ],
    [
      'a termination says what happened: never late',
      { ...spot, reason: 'InstanceTerminated' },
      '2027-01-01T00:00:00.000Z',
      false,
    ],
  ])('%s: %s', (_what, notice, now, expected) => {
    expect(arrivedTooLate(notice, new Date(now))).toBe(expected)
  })
})
