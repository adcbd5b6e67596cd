/** Shared value types: durations, int-or-percent, label selectors. */
import { describe, expect, it } from 'vitest'
import { parseDurationMs } from '../../../src/api/shared/duration'
import { resolveIntOrPercent } from '../../../src/api/shared/int-or-string'
import { selectorMatches, selectorToString } from '../../../src/api/shared/label-selector'

describe('parseDurationMs', () => {
  it.each([
    ['0', 0],
    ['30s', 30_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1_500],
    ['250ms', 250],
    ['-5m', undefined],
    ['5', undefined],
    ['', undefined],
    ['5 m', undefined],
  ])('%s -> %s', (input, expected) => {
    expect(parseDurationMs(input)).toBe(expected)
  })
})

describe('resolveIntOrPercent', () => {
  it.each([
    [3, 10, false, 3],
    ['25%', 10, true, 3],
    ['25%', 10, false, 2],
    ['100%', 7, false, 7],
  ])('%s of %s (round up: %s) -> %s', (value, total, roundUp, expected) => {
    expect(resolveIntOrPercent(value, total, roundUp)).toBe(expected)
  })
})

describe('label selectors', () => {
  const selector = {
    matchLabels: { app: 'web' },
    matchExpressions: [
      { key: 'tier', operator: 'In' as const, values: ['a', 'b'] },
      { key: 'legacy', operator: 'DoesNotExist' as const },
    ],
  }

  it.each([
    [{ app: 'web', tier: 'a' }, true],
    [{ app: 'web', tier: 'c' }, false],
    [{ app: 'web', tier: 'b', legacy: 'x' }, false],
    [{ tier: 'a' }, false],
  ])('%o matches: %s', (labels, expected) => {
    expect(selectorMatches(selector, labels)).toBe(expected)
  })

  it('renders the kubectl -l form for the scale subresource', () => {
    expect(selectorToString(selector)).toBe('app=web,tier in (a,b),!legacy')
  })
})
