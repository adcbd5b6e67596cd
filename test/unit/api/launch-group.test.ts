import { describe, expect, it } from 'vitest'
import { formatLaunchPlace, parseLaunchPlace } from '../../../src/api/launch-group'

describe('launch places', () => {
  it('reads back what it writes', () => {
    const place = { group: '0123456789abcdef', index: 3, size: 7 }
    expect(formatLaunchPlace(place)).toBe('0123456789abcdef/3/7')
    expect(parseLaunchPlace(formatLaunchPlace(place))).toEqual(place)
  })

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['an index past the size', 'g1/5/5'],
    ['a group of one', 'g1/0/1'],
    ['a group above 100', 'g1/0/101'],
    ['an upper-case group', 'G1/0/2'],
    ['extra parts', 'g1/0/2/3'],
    ['a negative index', 'g1/-1/2'],
  ])('takes a place that is %s as none', (_, value) => {
    expect(parseLaunchPlace(value)).toBeUndefined()
  })
})
