import { describe, expect, it } from 'vitest'
import { type LabelSelector, selectorMatches } from '../../../src/bus/label-selector'

const labels = { pool: 'workers', zone: 'a' }

describe('label selectors', () => {
  it.each<[string, LabelSelector | undefined, boolean]>([
    ['a missing selector matches nothing', undefined, false],
    ['an empty selector matches everything', {}, true],
    ['matchLabels all equal', { matchLabels: { pool: 'workers' } }, true],
    ['matchLabels one differs', { matchLabels: { pool: 'workers', zone: 'b' } }, false],
    ['In', { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }, true],
    [
      'In without the label',
      { matchExpressions: [{ key: 'x', operator: 'In', values: ['a'] }] },
      false,
    ],
    ['NotIn', { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, false],
    [
      'NotIn without the label',
      { matchExpressions: [{ key: 'x', operator: 'NotIn', values: ['a'] }] },
      true,
    ],
    ['Exists', { matchExpressions: [{ key: 'pool', operator: 'Exists' }] }, true],
    ['DoesNotExist', { matchExpressions: [{ key: 'pool', operator: 'DoesNotExist' }] }, false],
    ['an unknown operator', { matchExpressions: [{ key: 'pool', operator: 'Gt' }] }, false],
  ])('%s', (_situation, selector, expected) => {
    expect(selectorMatches(selector, labels)).toBe(expected)
  })
})
