import { describe, expect, it } from 'vitest'
import {
  defaultUnavailableOfferingTTLMs,
  rememberInterruptions,
  rememberOutcome,
  unavailableOfferingTTLMs,
  untilNextExpiry,
} from '../../../../src/reconcile/shared/unavailable-offerings'

const now = new Date('2026-12-04T12:00:00.000Z')
const at = (ms: number) => new Date(now.getTime() + ms).toISOString()
const micro = { instanceType: 't3.micro', zone: 'eu-west-1a', capacityType: 'on-demand' }
const small = { instanceType: 't3.small', zone: 'eu-west-1b', capacityType: 'spot' }
const miss = (o: typeof micro, reason = 'InsufficientInstanceCapacity') => ({ ...o, reason })

describe('rememberOutcome', () => {
  it.each([
    [
      'lists a miss until now + TTL',
      [],
      { missed: [miss(micro)] },
      [{ ...miss(micro), expiresAt: at(60_000) }],
    ],
    [
      'renews a miss found again',
      [{ ...miss(micro), expiresAt: at(5_000) }],
      { missed: [miss(micro, 'Unsupported')] },
      [{ ...miss(micro, 'Unsupported'), expiresAt: at(60_000) }],
    ],
    [
      'forgets the offering that launched',
      [
        { ...miss(micro), expiresAt: at(5_000) },
        { ...miss(small), expiresAt: at(9_000) },
      ],
      { missed: [], launched: micro },
      [{ ...miss(small), expiresAt: at(9_000) }],
    ],
    [
      'keeps an interruption of the offering that launched (the pool is still taken back)',
      [{ ...miss(small, 'SpotInterruption'), expiresAt: at(9_000) }],
      { missed: [], launched: small },
      [{ ...miss(small, 'SpotInterruption'), expiresAt: at(9_000) }],
    ],
    [
      'drops what expired, keeps the rest in expiry order',
      [
        { ...miss(small), expiresAt: at(9_000) },
        { ...miss(micro), expiresAt: at(-1) },
      ],
      { missed: [miss(micro)] },
      [
        { ...miss(small), expiresAt: at(9_000) },
        { ...miss(micro), expiresAt: at(60_000) },
      ],
    ],
  ])('%s', (_, current, outcome, expected) => {
    expect(rememberOutcome(current, outcome, now, 60_000)).toEqual(expected)
  })

  it('keeps at most 100 entries, the latest to expire', () => {
    const many = Array.from({ length: 120 }, (_, i) => ({
      ...miss({ ...micro, instanceType: `t${i}.large` }),
      expiresAt: at(1_000 + i),
    }))
    const kept = rememberOutcome(many, { missed: [] }, now, 60_000)
    expect(kept).toHaveLength(100)
    expect(kept[0]?.instanceType).toBe('t20.large')
  })
})

describe('rememberInterruptions', () => {
  const ttl = 60_000
  const spot = { ...small, capacityType: 'spot' }
  const interrupted = (atMs: number, reason = 'SpotInterruption') => ({
    ...spot,
    reason,
    atMs: now.getTime() + atMs,
  })
  const listed = (expires: number, reason = 'SpotInterruption') => ({
    ...spot,
    reason,
    expiresAt: at(expires),
  })
  it.each([
    ['lists it until its deadline + TTL', [], [interrupted(120_000)], [listed(180_000)]],
    [
      'writes the same entry again however often it runs (no renewal)',
      [listed(180_000)],
      [interrupted(120_000), interrupted(120_000)],
      [listed(180_000)],
    ],
    [
      'keeps an entry already listed until later (a capacity miss of the same offering)',
      [listed(300_000, 'InsufficientInstanceCapacity')],
      [interrupted(120_000)],
      [listed(300_000, 'InsufficientInstanceCapacity')],
    ],
    [
      'extends an entry listed until sooner',
      [listed(10_000, 'InsufficientInstanceCapacity')],
      [interrupted(120_000)],
      [listed(180_000)],
    ],
    [
      'the later of two interruptions in one offering wins',
      [],
      [interrupted(120_000), interrupted(150_000, 'RebalanceRecommended')],
      [listed(210_000, 'RebalanceRecommended')],
    ],
    ['never lists again what has expired', [], [interrupted(-ttl)], []],
    [
      'keeps what other writers listed, drops what expired, in expiry order',
      [
        { ...miss(micro), expiresAt: at(5_000) },
        { ...miss(micro, 'Unsupported'), zone: 'eu-west-1c', expiresAt: at(-1) },
      ],
      [interrupted(0)],
      [{ ...miss(micro), expiresAt: at(5_000) }, listed(60_000)],
    ],
  ])('%s', (_, current, found, expected) => {
    expect(rememberInterruptions(current, found, now, ttl)).toEqual(expected)
  })

  it('two passes that interleave converge on one list', () => {
    const other = { ...micro, reason: 'InsufficientInstanceCapacity', expiresAt: at(30_000) }
    const first = rememberInterruptions([], [interrupted(120_000)], now, ttl)
    // The second pass read before the first wrote, and met a Conflict: it merges over the fresh read.
    const merged = rememberInterruptions([...first, other], [interrupted(120_000)], now, ttl)
    expect(merged).toEqual([other, listed(180_000)])
    expect(rememberInterruptions(merged, [interrupted(120_000)], now, ttl)).toEqual(merged)
  })
})

describe('the TTL and the next expiry', () => {
  it('reads the class TTL, 3 minutes by default', () => {
    expect(unavailableOfferingTTLMs({ spec: { provider: 'aws', providerSpec: {} } })).toBe(
      defaultUnavailableOfferingTTLMs,
    )
    expect(
      unavailableOfferingTTLMs({
        spec: { provider: 'aws', providerSpec: {}, unavailableOfferingTTL: '90s' },
      }),
    ).toBe(90_000)
  })

  it('is due when the first entry expires', () => {
    expect(untilNextExpiry([], now)).toBeUndefined()
    const entries = [
      { ...miss(micro), expiresAt: at(9_000) },
      { ...miss(small), expiresAt: at(4_000) },
    ]
    expect(untilNextExpiry(entries, now)).toBe(4_000)
    expect(untilNextExpiry([{ ...miss(micro), expiresAt: at(-5) }], now)).toBe(1)
  })
})
