import { describe, expect, it } from 'vitest'
import { mergeWakes, ownChangeWake } from '../../../src/bus/wake'

const key = { kind: 'Machine', namespace: 'ns', name: 'm' }
const machine = (resourceVersion: string) => ({
  metadata: { namespace: 'ns', name: 'm', resourceVersion },
})

describe('wakes', () => {
  it('is a change of the key own object only for that object, and never for a deletion', () => {
    expect(ownChangeWake(key, { kind: 'Machine', obj: machine('5') })).toMatchObject({
      resourceVersion: '5',
    })
    expect(ownChangeWake(key, { kind: 'Node', obj: machine('5') })).toBeUndefined()
    expect(ownChangeWake({ ...key, name: 'n' }, { kind: 'Machine', obj: machine('5') })).toBe(
      undefined,
    )
    expect(ownChangeWake(key, { kind: 'Machine', obj: machine('5'), deleted: true })).toBe(
      undefined,
    )
  })

  it('merges own changes to the later delivered one, and anything else to no wake', () => {
    const first = ownChangeWake(key, { kind: 'Machine', obj: machine('5'), delivered: 2 })
    const second = ownChangeWake(key, { kind: 'Machine', obj: machine('6'), delivered: 3 })
    expect(mergeWakes(second, first)?.resourceVersion).toBe('6')
    expect(mergeWakes(first, second)?.resourceVersion).toBe('6')
    expect(mergeWakes(first, undefined)).toBeUndefined()
    expect(mergeWakes(undefined, second)).toBeUndefined()
  })
})
