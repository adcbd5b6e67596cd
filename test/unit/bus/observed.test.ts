import { describe, expect, it } from 'vitest'
import { heldObject, mergeObserved } from '../../../src/bus/observed'

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

describe('heldObject', () => {
  it('drops managedFields and keeps everything else', () => {
    const obj = {
      metadata: {
        name: 'a',
        resourceVersion: '5',
        labels: { pool: 'x' },
        managedFields: [{ manager: 'kubectl', operation: 'Update' }],
      },
      spec: { providerID: 'kwok://a' },
    }
    expect(heldObject(obj)).toEqual({
      metadata: { name: 'a', resourceVersion: '5', labels: { pool: 'x' } },
      spec: { providerID: 'kwok://a' },
    })
    // The delivered object itself is left as it was (a watch's mappers may still read it).
    expect(obj.metadata.managedFields).toHaveLength(1)
  })

  it('returns an object without managedFields as it is', () => {
    const obj = at('5')
    expect(heldObject(obj)).toBe(obj)
  })
})
