import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  backoffDelay,
  createBackoffTracker,
  defaultBackoff,
  jitterSeed,
} from '../../../../src/reconcile/runtime/backoff'

const policy = { baseMs: 100, maxMs: 10_000, jitter: 0 }
const key = { kind: 'Machine', namespace: 'ns', name: 'm' }

describe('backoff', () => {
  it.each([
    [1, 100],
    [2, 200],
    [4, 800],
    [8, 10_000],
    [50, 10_000],
  ])('waits base * 2^(n-1), capped, after %i failures', (failures, expected) => {
    expect(backoffDelay(failures, policy)).toBe(expected)
  })

  it('stays within [base, max] whatever the jitter', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (n, seed) => {
          const delay = backoffDelay(n, defaultBackoff, seed)
          return delay >= defaultBackoff.baseMs && delay <= defaultBackoff.maxMs
        },
      ),
    )
  })

  it('derives a reproducible jitter seed per key and attempt', () => {
    expect(jitterSeed(key, 3)).toBe(jitterSeed(key, 3))
    expect(jitterSeed(key, 3)).not.toBe(jitterSeed({ ...key, name: 'other' }, 3))
  })

  it('grows per key and forgets a key after a success', () => {
    const tracker = createBackoffTracker(policy)
    expect(tracker.failure(key)).toBe(100)
    expect(tracker.failure(key)).toBe(200)
    expect(tracker.failure({ ...key, name: 'other' })).toBe(100)
    tracker.success(key)
    expect(tracker.failures(key)).toBe(0)
    expect(tracker.failure(key)).toBe(100)
  })
})
