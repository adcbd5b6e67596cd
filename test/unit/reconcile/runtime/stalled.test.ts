import { describe, expect, it } from 'vitest'
import { isStalled, withStalled } from '../../../../src/reconcile/runtime/stalled'

const now = new Date('2026-01-01T00:00:00Z')
const later = new Date('2026-01-01T01:00:00Z')

describe('Stalled condition', () => {
  it('adds Stalled=True for the generation and keeps other conditions', () => {
    const ready = { type: 'Ready', status: 'False' }
    const out = withStalled([ready], { reason: 'BadSpec', message: 'm', generation: 3, now })
    expect(out).toEqual([
      ready,
      {
        type: 'Stalled',
        status: 'True',
        reason: 'BadSpec',
        message: 'm',
        observedGeneration: 3,
        lastTransitionTime: now.toISOString(),
      },
    ])
  })

  it('keeps lastTransitionTime while it stays True', () => {
    const first = withStalled([], { reason: 'A', message: 'm', generation: 1, now })
    const second = withStalled(first, { reason: 'B', message: 'm', generation: 2, now: later })
    expect(second[0]?.lastTransitionTime).toBe(now.toISOString())
    expect(second[0]?.reason).toBe('B')
  })

  it.each([
    ['blocks the generation it failed for', 3, true],
    ['lets a changed spec through', 4, false],
  ])('%s', (_situation, generation, stalled) => {
    const conditions = withStalled([], { reason: 'A', message: 'm', generation: 3, now })
    expect(isStalled({ metadata: { generation }, status: { conditions } })).toBe(stalled)
  })

  it('is not stalled without the condition', () => {
    expect(isStalled({ metadata: { generation: 1 } })).toBe(false)
  })
})
