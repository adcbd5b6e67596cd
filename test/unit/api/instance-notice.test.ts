import { describe, expect, it } from 'vitest'
import {
  formatInstanceNotice,
  type InstanceNotice,
  instanceNoticeAnnotation,
  noticeExpiresAtMs,
  noticeGraceMs,
  readInstanceNotice,
  supersedes,
} from '../../../src/api/instance-notice'

const spot: InstanceNotice = {
  reason: 'SpotInterruption',
  instanceId: 'i-0aaaaaaaaaaaaaaaa',
  eventId: 'e1',
  time: '2026-12-04T19:00:00.000Z',
  deadline: '2026-12-04T19:02:00.000Z',
}
const at = (iso: string, s: number) => new Date(Date.parse(iso) + s * 1000)
const later = (n: InstanceNotice, s: number) => ({
  ...n,
  time: new Date(Date.parse(n.time) + s * 1000).toISOString(),
})

describe('supersedes: the most serious notice stays', () => {
  it.each([
    ['nothing recorded', spot, undefined, true],
    ['the same notice again', spot, spot, false],
    ['an older copy', spot, later(spot, 30), false],
    ['a later one of the same kind', later(spot, 30), spot, true],
    [
      'a late rebalance recommendation',
      later({ ...spot, reason: 'RebalanceRecommended' }, 60),
      spot,
      false,
    ],
    ['a state change after the warning', { ...spot, reason: 'InstanceTerminated' }, spot, true],
    [
      'the warning after the state change',
      later(spot, 60),
      { ...spot, reason: 'InstanceTerminated' },
      false,
    ],
    [
      'a newer notice about another instance',
      later({ ...spot, instanceId: 'i-0bbbbbbbbbbbbbbbb', reason: 'RebalanceRecommended' }, 1),
      spot,
      true,
    ],
    [
      'an older notice about another instance',
      { ...spot, instanceId: 'i-0bbbbbbbbbbbbbbbb' },
      later(spot, 1),
      false,
    ],
  ] as const)('%s: %s', (_what, incoming, recorded, expected) => {
    expect(supersedes(incoming, recorded, at(spot.time, 60))).toBe(expected)
  })

  it.each([
    ['within the grace after the deadline', 14 * 60, false],
    ['past the deadline and its grace', 16 * 60, true],
  ])(
    'a rebalance recommendation after an interruption the instance survived, %s: %s',
    (_what, s, expected) => {
      const rebalance = later({ ...spot, reason: 'RebalanceRecommended' }, s)
      const now = at(spot.deadline ?? '', s)
      expect(supersedes(rebalance, spot, now)).toBe(expected)
    },
  )
})

describe('noticeExpiresAtMs: a notice counts until its moment and a grace', () => {
  const maintenance: InstanceNotice = {
    reason: 'ScheduledMaintenance',
    instanceId: 'i-0aaaaaaaaaaaaaaaa',
    eventId: 'h1',
    time: '2026-12-04T12:00:00.000Z',
    deadline: '2026-12-18T09:00:00.000Z',
    windowEnd: '2026-12-18T17:00:00.000Z',
  }
  it.each([
    ['a spot interruption: its deadline', spot, spot.deadline],
    ['a maintenance: the end of its window', maintenance, maintenance.windowEnd],
    [
      'a maintenance without an end: its start',
      { ...maintenance, windowEnd: undefined },
      maintenance.deadline,
    ],
    [
      'a termination: its time',
      { ...spot, reason: 'InstanceTerminated' as const, deadline: undefined },
      spot.time,
    ],
  ])('%s', (_what, notice, moment) => {
    expect(noticeExpiresAtMs(notice)).toBe(Date.parse(moment ?? '') + noticeGraceMs)
  })

  it('a rebalance recommendation names no moment: it does not expire', () => {
    const rebalance = { ...spot, reason: 'RebalanceRecommended' as const, deadline: undefined }
    expect(noticeExpiresAtMs(rebalance)).toBeUndefined()
  })
})

describe('the annotation', () => {
  it('round-trips, and an unreadable value reads as no notice', () => {
    const annotations = { [instanceNoticeAnnotation]: formatInstanceNotice(spot) }
    expect(readInstanceNotice(annotations)).toEqual(spot)
    expect(readInstanceNotice({ [instanceNoticeAnnotation]: '{"reason":"Nope"' })).toBeUndefined()
    expect(readInstanceNotice({ [instanceNoticeAnnotation]: '{"reason":"Nope"}' })).toBeUndefined()
    expect(readInstanceNotice(undefined)).toBeUndefined()
  })
})
