import { describe, expect, it } from 'vitest'
import {
  formatInstanceNotice,
  type InstanceNotice,
  instanceNoticeAnnotation,
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
    expect(supersedes(incoming, recorded)).toBe(expected)
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
