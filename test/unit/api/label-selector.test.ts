import { describe, expect, it } from 'vitest'
import {
  type SelectorLike,
  selectorError,
  selectorMatches,
} from '../../../src/api/shared/label-selector'

const labels = { pool: 'workers', zone: 'a' }
const expr = (operator: string, key = 'zone', values?: string[]): SelectorLike => ({
  matchExpressions: [{ key, operator, ...(values ? { values } : {}) }],
})

// The cases of apimachinery's labels.Selector built by metav1.LabelSelectorAsSelector: an invalid
// selector is an error there, and a controller given one selects nothing.
describe('selectorMatches', () => {
  it.each<[string, SelectorLike | undefined, boolean]>([
    ['a missing selector matches nothing', undefined, false],
    ['an empty selector matches everything', {}, true],
    ['matchLabels all equal', { matchLabels: { pool: 'workers' } }, true],
    ['matchLabels one differs', { matchLabels: { pool: 'workers', zone: 'b' } }, false],
    ['matchLabels on a missing label', { matchLabels: { rack: '' } }, false],
    ['In', expr('In', 'zone', ['a', 'b']), true],
    ['In, value not listed', expr('In', 'zone', ['b']), false],
    ['In without the label', expr('In', 'rack', ['a']), false],
    ['NotIn', expr('NotIn', 'zone', ['a']), false],
    ['NotIn, value not listed', expr('NotIn', 'zone', ['b']), true],
    ['NotIn without the label', expr('NotIn', 'rack', ['a']), true],
    ['Exists', expr('Exists', 'pool'), true],
    ['Exists without the label', expr('Exists', 'rack'), false],
    ['DoesNotExist', expr('DoesNotExist', 'pool'), false],
    ['DoesNotExist without the label', expr('DoesNotExist', 'rack'), true],
    [
      'requirements are ANDed',
      { matchLabels: { pool: 'workers' }, ...expr('In', 'zone', ['b']) },
      false,
    ],
    ['an unknown operator', expr('Gt', 'pool', ['1']), false],
    ['a lowercase operator', expr('in', 'zone', ['a']), false],
    ['In without values', expr('In', 'zone', []), false],
    ['NotIn without values (would otherwise match)', expr('NotIn', 'rack', []), false],
    ['Exists with values', expr('Exists', 'pool', ['workers']), false],
    [
      'an invalid requirement next to a matching one',
      {
        matchExpressions: [
          { key: 'pool', operator: 'Exists' },
          { key: 'x', operator: 'Bogus' },
        ],
      },
      false,
    ],
  ])('%s', (_situation, selector, expected) => {
    expect(selectorMatches(selector, labels)).toBe(expected)
  })
})

describe('selectorError', () => {
  it.each<[SelectorLike, string | undefined]>([
    [{}, undefined],
    [expr('In', 'zone', ['a']), undefined],
    [expr('Gt', 'zone', ['1']), 'matchExpressions[0]: "Gt" is not a valid label selector operator'],
    [expr('NotIn', 'zone', []), 'matchExpressions[0]: values must be non-empty for NotIn'],
    [
      expr('DoesNotExist', 'zone', ['a']),
      'matchExpressions[0]: values must be empty for DoesNotExist',
    ],
  ])('%o -> %s', (selector, expected) => {
    expect(selectorError(selector)).toBe(expected)
  })
})
