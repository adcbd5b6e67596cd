/** Keys a namespace-limited transport may run: its namespace's and cluster-scoped ones only. */
import { describe, expect, it } from 'vitest'
import { inNamespaceScope } from '../../../src/bus/namespace-scope'

describe('inNamespaceScope', () => {
  it.each([
    ['a key of the namespace', { kind: 'Machine', namespace: 'a', name: 'm' }, 'a', true],
    ['a key of another namespace', { kind: 'Machine', namespace: 'b', name: 'm' }, 'a', false],
    ['a cluster-scoped key', { kind: 'Node', name: 'n' }, 'a', true],
    ['any key without a limit', { kind: 'Machine', namespace: 'b', name: 'm' }, undefined, true],
  ] as const)('%s', (_, key, namespace, expected) => {
    expect(inNamespaceScope(key, namespace)).toBe(expected)
  })
})
