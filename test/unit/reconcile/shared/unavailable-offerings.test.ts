import { describe, expect, it } from 'vitest'
import {
  defaultUnavailableOfferingTTLMs,
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
