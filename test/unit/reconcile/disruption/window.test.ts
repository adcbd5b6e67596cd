import { describe, expect, it } from 'vitest'
import { windowAt } from '../../../../src/reconcile/disruption/window'

const h = 3_600_000
const at = (iso: string) => new Date(iso)

describe('windowAt', () => {
  // Weekdays 09:00-17:00 UTC; 2026-12-04 is a Friday.
  const business = '0 9 * * 1-5'
  it.each([
    [
      'before it opens on a weekday',
      '2026-12-04T08:59:59Z',
      false,
      undefined,
      '2026-12-04T09:00:00Z',
    ],
    ['the second it opens', '2026-12-04T09:00:00Z', true, '2026-12-04T17:00:00Z', undefined],
    ['in the middle', '2026-12-04T12:30:00Z', true, '2026-12-04T17:00:00Z', undefined],
    [
      'the last second before it closes',
      '2026-12-04T16:59:59Z',
      true,
      '2026-12-04T17:00:00Z',
      undefined,
    ],
    [
      'the second it closes (the end is exclusive)',
      '2026-12-04T17:00:00Z',
      false,
      undefined,
      '2026-12-07T09:00:00Z',
    ],
    [
      'on a Saturday: next opens Monday',
      '2026-12-05T12:00:00Z',
      false,
      undefined,
      '2026-12-07T09:00:00Z',
    ],
  ])('%s', (_name, now, open, closesAt, opensAt) => {
    const state = windowAt(business, 8 * h, at(now))
    expect(state.open).toBe(open)
    expect(state.closesAt?.toISOString().replace('.000', '')).toBe(closesAt)
    expect(state.opensAt?.toISOString().replace('.000', '')).toBe(opensAt)
  })

  it('a window that spans midnight is open after midnight', () => {
    const state = windowAt('0 22 * * *', 4 * h, at('2026-12-05T01:00:00Z'))
    expect(state).toEqual({ open: true, closesAt: at('2026-12-05T02:00:00Z') })
  })

  it('overlapping windows chain: every 30 minutes for 45 minutes closes 45 minutes after the last firing', () => {
    // Fires at :00 and :30 of hour 9 only; the 9:30 window extends the 9:00 one to 10:15.
    const state = windowAt('0,30 9 * * *', 0.75 * h, at('2026-12-04T09:10:00Z'))
    expect(state).toEqual({ open: true, closesAt: at('2026-12-04T10:15:00Z') })
  })

  it('a schedule that fires more often than its window lasts never closes', () => {
    expect(windowAt('* * * * *', h, at('2026-12-04T09:10:00Z'))).toEqual({ open: true })
  })

  it('@daily opens at midnight UTC', () => {
    expect(windowAt('@daily', h, at('2026-12-04T23:30:00Z'))).toEqual({
      open: false,
      opensAt: at('2026-12-05T00:00:00Z'),
    })
  })

  it('a short window (seconds) for tests: opens and closes within a minute', () => {
    expect(windowAt('* * * * *', 20_000, at('2026-12-04T09:10:19Z')).open).toBe(true)
    expect(windowAt('* * * * *', 20_000, at('2026-12-04T09:10:20Z'))).toEqual({
      open: false,
      opensAt: at('2026-12-04T09:11:00Z'),
    })
  })

  it('throws on a schedule croner cannot parse', () => {
    expect(() => windowAt('61 * * * *', h, at('2026-12-04T09:00:00Z'))).toThrow(/minute/)
  })
})
