import { describe, expect, it } from 'vitest'
import { mergeObserved } from '../../../src/bus/observed'

const at = (resourceVersion: string) => ({ metadata: { name: 'a', resourceVersion } })

describe('mergeObserved', () => {
  const v5 = at('5')
  it.each([
    ['nothing known', undefined, undefined, undefined],
    ['a first object', undefined, v5, v5],
    ['a hint without an object', v5, undefined, v5],
    ['the same version', v5, at('5'), v5],
    ['another version', v5, at('6'), undefined],
  ])('%s', (_, current, next, expected) => {
    expect(mergeObserved(current, next)).toBe(expected)
  })
})
