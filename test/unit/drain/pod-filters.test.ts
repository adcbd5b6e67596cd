import type { V1Pod } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import { LABELS } from '../../../src/api/group'
import { decidePod } from '../../../src/drain/pod-filters'

const now = new Date('2026-12-02T12:00:00Z')

function pod(overrides: {
  phase?: string
  deletedSecondsAgo?: number
  owner?: string
  annotations?: Record<string, string>
  labels?: Record<string, string>
  emptyDir?: boolean
}): V1Pod {
  return {
    metadata: {
      name: 'p',
      namespace: 'ns',
      ...(overrides.annotations ? { annotations: overrides.annotations } : {}),
      ...(overrides.labels ? { labels: overrides.labels } : {}),
      ...(overrides.deletedSecondsAgo === undefined
        ? {}
        : { deletionTimestamp: new Date(now.getTime() - overrides.deletedSecondsAgo * 1000) }),
      ...(overrides.owner === undefined
        ? {}
        : {
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: overrides.owner,
                name: 'o',
                uid: 'u',
                controller: true,
              },
            ],
          }),
    },
    spec: {
      containers: [{ name: 'c' }],
      ...(overrides.emptyDir ? { volumes: [{ name: 'scratch', emptyDir: {} }] } : {}),
    },
    status: { phase: overrides.phase ?? 'Running' },
  }
}

describe('decidePod', () => {
  it.each([
    ['a ReplicaSet pod is evicted', pod({ owner: 'ReplicaSet' }), false, { action: 'evict' }],
    [
      "a succeeded Job's pod goes, as in kubectl",
      pod({ phase: 'Succeeded', owner: 'Job' }),
      false,
      { action: 'evict' },
    ],
    [
      'a failed pod without controller or with emptyDir goes without a warning',
      pod({ phase: 'Failed', emptyDir: true }),
      false,
      { action: 'evict' },
    ],
    [
      'a finished DaemonSet pod goes (a running one stays)',
      pod({ phase: 'Failed', owner: 'DaemonSet' }),
      false,
      { action: 'evict' },
    ],
    [
      'a finished mirror pod stays: the API cannot delete it',
      pod({ phase: 'Succeeded', annotations: { 'kubernetes.io/config.mirror': 'abc' } }),
      false,
      { action: 'skip', reason: 'mirror pod' },
    ],
    [
      'a finished pod with the skip label stays',
      pod({ phase: 'Succeeded', owner: 'Job', labels: { [LABELS.drain]: 'skip' } }),
      false,
      { action: 'skip', reason: `label ${LABELS.drain}=skip` },
    ],
    [
      'a wait-completed pod that completed goes',
      pod({ phase: 'Succeeded', owner: 'Job', labels: { [LABELS.drain]: 'wait-completed' } }),
      false,
      { action: 'evict' },
    ],
    [
      'a finished pod being deleted is waited for like any other',
      pod({ phase: 'Succeeded', owner: 'Job', deletedSecondsAgo: 3 }),
      false,
      { action: 'wait', reason: 'terminating' },
    ],
    [
      'a DaemonSet pod stays',
      pod({ owner: 'DaemonSet' }),
      false,
      { action: 'skip', reason: 'DaemonSet pod' },
    ],
    [
      'a mirror pod stays',
      pod({ annotations: { 'kubernetes.io/config.mirror': 'abc' } }),
      false,
      { action: 'skip', reason: 'mirror pod' },
    ],
    [
      'a terminating pod is waited for',
      pod({ owner: 'ReplicaSet', deletedSecondsAgo: 30 }),
      false,
      { action: 'wait', reason: 'terminating' },
    ],
    [
      'a pod deleted long ago on an unreachable node is not waited for',
      pod({ owner: 'ReplicaSet', deletedSecondsAgo: 30 }),
      true,
      { action: 'skip', reason: 'deleted on an unreachable node' },
    ],
    [
      'a pod deleted just now on an unreachable node is still waited for',
      pod({ owner: 'ReplicaSet', deletedSecondsAgo: 0 }),
      true,
      { action: 'wait', reason: 'terminating' },
    ],
    [
      'an emptyDir pod is evicted with a data-loss warning',
      pod({ owner: 'ReplicaSet', emptyDir: true }),
      false,
      { action: 'evict', warning: 'emptyDir data is lost' },
    ],
    [
      'a pod without controller is evicted with a warning',
      pod({}),
      false,
      { action: 'evict', warning: 'no controller will recreate it' },
    ],
    [
      'the skip label keeps a pod',
      pod({ owner: 'ReplicaSet', labels: { [LABELS.drain]: 'skip' } }),
      false,
      { action: 'skip', reason: `label ${LABELS.drain}=skip` },
    ],
    [
      'the wait-completed label waits without evicting',
      pod({ owner: 'Job', labels: { [LABELS.drain]: 'wait-completed' } }),
      false,
      { action: 'wait', reason: `label ${LABELS.drain}=wait-completed` },
    ],
  ])('%s', (_name, input, nodeUnreachable, expected) => {
    expect(decidePod(input, { nodeUnreachable, now })).toEqual(expected)
  })
})
