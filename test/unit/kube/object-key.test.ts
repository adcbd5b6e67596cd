import { describe, expect, it } from 'vitest'
import { formatKey, keyOf } from '../../../src/kube/object-key'

describe('object keys', () => {
  it.each([
    [{ kind: 'Machine', namespace: 'ns', name: 'm-1' }, 'Machine/ns/m-1'],
    [{ kind: 'Node', name: 'ip-10-0-0-1.ec2.internal' }, 'Node/ip-10-0-0-1.ec2.internal'],
  ])('formats %j', (key, text) => {
    expect(formatKey(key)).toBe(text)
  })

  it('keys an object by its metadata', () => {
    expect(keyOf('Machine', { metadata: { namespace: 'ns', name: 'm' } })).toEqual({
      kind: 'Machine',
      namespace: 'ns',
      name: 'm',
    })
    expect(keyOf('Machine', { metadata: {} })).toBeUndefined()
  })
})
