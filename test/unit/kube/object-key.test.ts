import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatKey, keyOf, parseKey, uniqueKeys } from '../../../src/kube/object-key'

describe('object keys', () => {
  it.each([
    [{ kind: 'Machine', namespace: 'ns', name: 'm-1' }, 'Machine/ns/m-1'],
    [{ kind: 'Node', name: 'ip-10-0-0-1.ec2.internal' }, 'Node/ip-10-0-0-1.ec2.internal'],
  ])('formats %j', (key, text) => {
    expect(formatKey(key)).toBe(text)
    expect(parseKey(text)).toEqual(key)
  })

  it.each(['', 'Machine', 'Machine//x', 'a/b/c/d'])('rejects %j', (text) => {
    expect(parseKey(text)).toBeUndefined()
  })

  it('round-trips any DNS-style names', () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9.-]{0,20}[a-z0-9])?$/)
    fc.assert(
      fc.property(fc.option(label, { nil: undefined }), label, (namespace, name) => {
        const key = namespace ? { kind: 'K', namespace, name } : { kind: 'K', name }
        expect(parseKey(formatKey(key))).toEqual(key)
      }),
    )
  })

  it('keys an object by its metadata', () => {
    expect(keyOf('Machine', { metadata: { namespace: 'ns', name: 'm' } })).toEqual({
      kind: 'Machine',
      namespace: 'ns',
      name: 'm',
    })
    expect(keyOf('Machine', { metadata: {} })).toBeUndefined()
  })

  it('drops repeated keys, keeping the first', () => {
    const a = { kind: 'K', name: 'a' }
    expect(uniqueKeys([a, { kind: 'K', name: 'b' }, { ...a }])).toEqual([
      a,
      { kind: 'K', name: 'b' },
    ])
  })
})
