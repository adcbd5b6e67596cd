import { describe, expect, it } from 'vitest'
import { ANNOTATIONS } from '../../../../src/api/group'
import { foreignNodeReason } from '../../../../src/reconcile/machine/node-ownership'

const machine = (providerID?: string) => ({
  metadata: { namespace: 'ns', name: 'a' },
  spec: providerID ? { providerID } : {},
})
const node = (providerID?: string, owner?: string) => ({
  metadata: {
    name: 'n',
    ...(owner ? { annotations: { [ANNOTATIONS.machine]: owner } } : {}),
  },
  spec: providerID ? { providerID } : {},
})

describe('whose Node', () => {
  it.each([
    ['the same providerID', machine('kwok://ns.a'), node('kwok://ns.a'), undefined],
    [
      'another providerID, whatever the annotation says',
      machine('kwok://ns.a'),
      node('kwok://ns.b', 'ns/a'),
      'Node n has providerID kwok://ns.b, this Machine kwok://ns.a',
    ],
    ['no providerID yet, annotated as this Machine', machine(), node(undefined, 'ns/a'), undefined],
    [
      'no providerID on the Node, annotated as another Machine',
      machine('kwok://ns.a'),
      node(undefined, 'ns/b'),
      'Node n belongs to Machine ns/b',
    ],
    [
      'nothing ties it to this Machine',
      machine('kwok://ns.a'),
      node(),
      'Node n has no providerID or Machine annotation naming this Machine',
    ],
  ])('%s', (_name, m, n, expected) => {
    expect(foreignNodeReason(m, n)).toBe(expected)
  })
})
