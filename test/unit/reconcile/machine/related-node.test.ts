import { describe, expect, it } from 'vitest'
import { machineRelatedNode } from '../../../../src/reconcile/machine/related-node'

describe('machineRelatedNode', () => {
  it('names the Node status.nodeRef links', () => {
    const machine = { metadata: { name: 'm' }, status: { nodeRef: { name: 'ns.m', uid: 'u' } } }
    expect(machineRelatedNode.refsOf(machine)).toEqual([{ name: 'ns.m' }])
  })

  it('names none for a Machine not linked yet', () => {
    expect(machineRelatedNode.refsOf({ metadata: { name: 'm' } })).toEqual([])
    expect(machineRelatedNode.refsOf({ metadata: { name: 'm' }, status: {} })).toEqual([])
  })
})
