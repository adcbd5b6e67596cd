import { describe, expect, it } from 'vitest'
import { heldObject, mergeObserved, mergeRelated } from '../../../src/bus/observed'
import { coreTypes } from '../../../src/kube/resource'

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

describe('mergeRelated', () => {
  const node = (name: string, resourceVersion: string, delivered: number) => ({
    type: coreTypes.node,
    obj: { metadata: { name, resourceVersion } },
    delivered,
  })
  const versions = (hints: ReturnType<typeof mergeRelated>) =>
    hints?.map((h) => `${h.obj.metadata?.name}@${h.obj.metadata?.resourceVersion}`)

  it('keeps, per object, the version its watch delivered last', () => {
    expect(versions(mergeRelated([node('a', '5', 1)], [node('a', '6', 2)]))).toEqual(['a@6'])
    // Mapped out of order: the later delivery still wins.
    expect(versions(mergeRelated([node('a', '6', 2)], [node('a', '5', 1)]))).toEqual(['a@6'])
  })

  it('keeps objects of different names and what a bare hint leaves', () => {
    expect(versions(mergeRelated([node('a', '5', 1)], [node('b', '7', 2)]))).toEqual(['a@5', 'b@7'])
    expect(versions(mergeRelated([node('a', '5', 1)], undefined))).toEqual(['a@5'])
  })
})
