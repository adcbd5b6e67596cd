import type { V1Node, V1Taint } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import {
  machineAnnotation,
  type NodeWishes,
  ownedAnnotationsAnnotation,
  ownedLabelsAnnotation,
  ownedTaintsAnnotation,
  planNodeSync,
} from '../../../../src/reconcile/machine/node-sync'

const wishes = (overrides: Partial<NodeWishes> = {}): NodeWishes => ({
  machineNamespace: 'prod',
  machineName: 'm-1',
  labels: {},
  annotations: {},
  taints: [],
  ...overrides,
})

/** A Node as the Machine would leave it after syncing `w`, plus foreign metadata. */
function syncedNode(
  w: NodeWishes,
  foreign: Partial<V1Node['metadata']> = {},
  foreignTaints: V1Taint[] = [],
): V1Node {
  return {
    metadata: {
      name: 'n',
      labels: { 'kubernetes.io/hostname': 'n', ...w.labels, ...foreign?.labels },
      annotations: {
        ...w.annotations,
        ...foreign?.annotations,
        [machineAnnotation]: `${w.machineNamespace}/${w.machineName}`,
        [ownedLabelsAnnotation]: Object.keys(w.labels).sort().join(','),
        [ownedAnnotationsAnnotation]: Object.keys(w.annotations).sort().join(','),
        [ownedTaintsAnnotation]: w.taints
          .map((t) => `${t.key}:${t.effect}`)
          .sort()
          .join(','),
      },
    },
    spec: { taints: [...foreignTaints, ...w.taints] },
  }
}

describe('planNodeSync', () => {
  it('adds labels, annotations, taints and the back-reference to a fresh Node', () => {
    const w = wishes({
      labels: { role: 'worker' },
      annotations: { team: 'a' },
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
    })
    const patch = planNodeSync(w, {
      metadata: { name: 'n', labels: { 'kubernetes.io/hostname': 'n' } },
    })
    expect(patch).toEqual({
      labels: { role: 'worker' },
      annotations: {
        team: 'a',
        [machineAnnotation]: 'prod/m-1',
        [ownedLabelsAnnotation]: 'role',
        [ownedAnnotationsAnnotation]: 'team',
        [ownedTaintsAnnotation]: 'dedicated:NoSchedule',
      },
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
    })
  })

  it('returns nothing for a Machine that owns nothing on a Node already naming it', () => {
    const node = { metadata: { name: 'n', annotations: { [machineAnnotation]: 'prod/m-1' } } }
    expect(planNodeSync(wishes(), node)).toBeUndefined()
  })

  it('writes only the back-reference when the Machine owns nothing and the Node lacks it', () => {
    expect(planNodeSync(wishes(), { metadata: { name: 'n' } })).toEqual({
      labels: {},
      annotations: { [machineAnnotation]: 'prod/m-1' },
    })
  })

  it('removes an owned list that empties instead of writing it empty', () => {
    const before = wishes({ labels: { role: 'worker' } })
    const patch = planNodeSync(wishes(), syncedNode(before))
    expect(patch?.labels).toEqual({ role: null })
    expect(patch?.annotations).toEqual({ [ownedLabelsAnnotation]: null })
  })

  it('returns nothing when the Node already matches', () => {
    const w = wishes({ labels: { role: 'worker' }, taints: [{ key: 'x', effect: 'NoExecute' }] })
    expect(planNodeSync(w, syncedNode(w))).toBeUndefined()
  })

  it('removes a label the Machine no longer has, and only that one', () => {
    const before = wishes({ labels: { role: 'worker', tier: 'a' } })
    const node = syncedNode(before, { labels: { 'set-by-admin': 'yes' } })
    const patch = planNodeSync(wishes({ labels: { role: 'worker' } }), node)
    expect(patch?.labels).toEqual({ tier: null })
    expect(patch?.annotations[ownedLabelsAnnotation]).toBe('role')
  })

  it('removes a taint the Machine dropped but keeps taints others set', () => {
    const before = wishes({ taints: [{ key: 'dedicated', effect: 'NoSchedule' }] })
    const unreachable: V1Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }
    const node = syncedNode(before, {}, [unreachable])
    const patch = planNodeSync(wishes(), node)
    expect(patch?.taints).toEqual([unreachable])
  })

  it('updates a taint whose value changed', () => {
    const before = wishes({ taints: [{ key: 'dedicated', value: 'a', effect: 'NoSchedule' }] })
    const patch = planNodeSync(
      wishes({ taints: [{ key: 'dedicated', value: 'b', effect: 'NoSchedule' }] }),
      syncedNode(before),
    )
    expect(patch?.taints).toEqual([{ key: 'dedicated', value: 'b', effect: 'NoSchedule' }])
  })
})
