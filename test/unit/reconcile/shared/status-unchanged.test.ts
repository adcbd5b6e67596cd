import type { V1Node } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import type { Machine } from '../../../../src/api/v1beta1/machine'
import { applyMergePatch } from '../../../../src/kube/merge-patch'
import { computeMachineStatus } from '../../../../src/reconcile/machine/status'
import { statusUnchanged } from '../../../../src/reconcile/shared/status-unchanged'

const readyNode: V1Node = {
  metadata: { name: 'ns.m', uid: 'u1' },
  status: { conditions: [{ type: 'Ready', status: 'True' }] as never },
}

function machine(status?: Machine['status']): Machine {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: { name: 'm', namespace: 'ns', generation: 2 },
    spec: {
      providerSpec: { provider: 'kwok', value: {} },
      providerID: 'kwok://ns/m',
      nodeDeletionTimeout: '10s',
    },
    ...(status ? { status } : {}),
  }
}

describe('applyMergePatch', () => {
  it('deletes on null, merges objects and replaces arrays', () => {
    expect(
      applyMergePatch({ a: 1, b: { c: 1, d: 2 }, e: [1, 2] }, { a: null, b: { c: 3 }, e: [3] }),
    ).toEqual({ b: { c: 3, d: 2 }, e: [3] })
  })
})

describe('statusUnchanged', () => {
  it('is true when a converged Machine is reconciled again (no status write)', () => {
    const linked = { state: 'found' as const, node: readyNode, linked: true }
    const first = computeMachineStatus(
      { machine: machine(), instance: { state: 'absent' }, node: linked },
      { events: [] },
      new Date('2026-12-02T12:00:00Z'),
    )
    // What the apiserver stores: the patch applied (nulls dropped).
    const stored = applyMergePatch({}, JSON.parse(JSON.stringify(first))) as Machine['status']
    const again = computeMachineStatus(
      { machine: machine(stored), instance: { state: 'absent' }, node: linked },
      { events: [] },
      new Date('2026-12-02T12:05:00Z'),
    )
    expect(statusUnchanged(stored, again)).toBe(true)
  })

  it('is false when the phase, a condition or a cleared field changes', () => {
    const stored = { phase: 'Running', failureReason: 'X' } as Machine['status']
    expect(statusUnchanged(stored, { phase: 'Running', failureReason: null })).toBe(false)
    expect(statusUnchanged({ phase: 'Running' }, { phase: 'Deleting' })).toBe(false)
    expect(statusUnchanged({ phase: 'Running' }, { phase: 'Running', failureReason: null })).toBe(
      true,
    )
    expect(statusUnchanged(undefined, { phase: 'Pending' })).toBe(false)
  })
})
