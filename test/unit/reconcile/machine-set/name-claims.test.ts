import { describe, expect, it } from 'vitest'
import {
  claimsExpireInMs,
  listMayMissDoneCreates,
  type NameClaim,
  withClaim,
  withClaimDone,
} from '../../../../src/reconcile/machine-set/name-claims'

const t0 = new Date('2026-01-01T00:00:00Z')
const ago = (ms: number) => new Date(t0.getTime() - ms).toISOString()

describe('name claims', () => {
  it.each<[string, NameClaim[], boolean]>([
    ['no claim', [], false],
    ['an open claim only', [{ from: 0, to: 2, at: ago(1_000) }], false],
    ['a live done claim', [{ from: 0, to: 2, at: ago(1_000), done: true }], true],
    ['a done claim past its TTL', [{ from: 0, to: 2, at: ago(90_000), done: true }], false],
  ])('a list older than the set may miss done creates with %s', (_name, claims, expected) => {
    expect(listMayMissDoneCreates(claims, t0)).toBe(expected)
  })

  it('marks only the claim with the same range and time done, and says when it is gone', () => {
    const mine = { from: 2, to: 4, at: ago(1_000) }
    const other = { from: 0, to: 2, at: ago(2_000) }
    expect(withClaimDone([other, mine], mine)).toEqual([other, { ...mine, done: true }])
    expect(withClaimDone([other], mine)).toBeUndefined()
    expect(withClaimDone([other, { ...mine, at: ago(3_000) }], mine)).toBeUndefined()
  })

  it('drops expired claims and keeps at most 32 when it claims', () => {
    const old = { from: 0, to: 1, at: ago(100_000) }
    const live = Array.from({ length: 40 }, (_, i) => ({ from: i + 1, to: i + 2, at: ago(1_000) }))
    const claims = withClaim([old, ...live], { from: 41, to: 43 }, t0)
    expect(claims).toHaveLength(32)
    expect(claims[0]).toEqual(live[9])
    expect(claims.at(-1)).toEqual({ from: 41, to: 43, at: t0.toISOString() })
  })

  it('times only the open claims', () => {
    const open = { from: 2, to: 4, at: ago(30_000) }
    const done = { from: 0, to: 2, at: ago(80_000), done: true }
    expect(claimsExpireInMs([done, open], t0)).toBe(60_000)
    expect(claimsExpireInMs([done], t0)).toBeUndefined()
  })
})
