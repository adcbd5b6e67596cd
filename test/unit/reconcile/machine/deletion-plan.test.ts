import { describe, expect, it } from 'vitest'
import {
  type DeletionObservation,
  excludeDrainAnnotation,
  nodeDeletionTimedOut,
  planDeletion,
  preDrainHookPrefix,
  preTerminateHookPrefix,
} from '../../../../src/reconcile/machine/deletion-plan'

const now = new Date('2026-12-02T12:00:00.000Z')
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString()
const node = { name: 'n1', unreachable: false, attachedVolumes: [] as string[] }

function obs(overrides: Partial<DeletionObservation> = {}): DeletionObservation {
  return {
    annotations: {},
    timers: {},
    timeoutsMs: {},
    drained: false,
    volumesDetached: false,
    node,
    instanceGone: false,
    ...overrides,
  }
}

describe('planDeletion', () => {
  it.each<[string, DeletionObservation, unknown]>([
    [
      'a pre-drain hook holds the Machine',
      obs({ annotations: { [`${preDrainHookPrefix}/backup`]: 'ops' } }),
      { step: 'wait-pre-drain-hook', hooks: [`${preDrainHookPrefix}/backup`] },
    ],
    [
      'without hooks it drains the Node',
      obs(),
      { step: 'drain', nodeName: 'n1', nodeUnreachable: false },
    ],
    [
      'an unreachable Node is drained with the unreachable flag',
      obs({ node: { ...node, unreachable: true } }),
      { step: 'drain', nodeName: 'n1', nodeUnreachable: true },
    ],
    [
      'no Node means nothing to drain',
      obs({ node: undefined }),
      { step: 'skip-drain', reason: 'NodeNotFound' },
    ],
    [
      'the exclude annotation skips the drain',
      obs({ annotations: { [excludeDrainAnnotation]: '' } }),
      { step: 'skip-drain', reason: 'DrainExcluded' },
    ],
    [
      'a drain past nodeDrainTimeout is abandoned',
      obs({ timers: { nodeDrainStartTime: minutesAgo(6) }, timeoutsMs: { nodeDrain: 5 * 60_000 } }),
      { step: 'skip-drain', reason: 'NodeDrainTimeout' },
    ],
    [
      'after the drain it waits for attached volumes',
      obs({ drained: true, node: { ...node, attachedVolumes: ['vol-1'] } }),
      { step: 'wait-volume-detach', volumes: ['vol-1'] },
    ],
    [
      'volumes on an unreachable Node are not waited for',
      obs({ drained: true, node: { ...node, unreachable: true, attachedVolumes: ['vol-1'] } }),
      { step: 'skip-volume-detach', reason: 'NodeUnreachable' },
    ],
    [
      'a pre-terminate hook holds the Machine after drain',
      obs({ drained: true, annotations: { [`${preTerminateHookPrefix}/lb`]: '' } }),
      { step: 'wait-pre-terminate-hook', hooks: [`${preTerminateHookPrefix}/lb`] },
    ],
    ['then the instance is deleted', obs({ drained: true }), { step: 'delete-instance' }],
    [
      'once the instance is gone the Node is deleted',
      obs({ instanceGone: true }),
      { step: 'delete-node', nodeName: 'n1' },
    ],
    [
      'a Node whose deletion already started (the kwok instance was the Node) is not deleted again',
      obs({ instanceGone: true, node: { ...node, deleting: true } }),
      { step: 'remove-finalizer' },
    ],
    [
      'a Node being deleted while the instance still runs is drained as before',
      obs({ node: { ...node, deleting: true } }),
      { step: 'drain', nodeName: 'n1', nodeUnreachable: false },
    ],
    [
      'hooks no longer matter once the instance is gone',
      obs({
        instanceGone: true,
        node: undefined,
        annotations: { [`${preDrainHookPrefix}/x`]: '' },
      }),
      { step: 'remove-finalizer' },
    ],
    [
      'spec lifecycle hooks hold the Machine like annotation hooks',
      obs({ drained: true, specHooks: { preDrain: [], preTerminate: ['lb-deregister'] } }),
      { step: 'wait-pre-terminate-hook', hooks: ['lb-deregister'] },
    ],
  ])('%s', (_name, observation, expected) => {
    expect(planDeletion(observation, now).next).toEqual(expected)
  })

  it('starts each timer once and reports the drain deadline', () => {
    const first = planDeletion(obs({ timeoutsMs: { nodeDrain: 60_000 } }), now)
    expect(first.startTimers).toEqual({ nodeDrainStartTime: now.toISOString() })
    expect(first.deadlineMs).toBe(now.getTime() + 60_000)
    const later = planDeletion(
      obs({ timers: { nodeDrainStartTime: minutesAgo(0.5) }, timeoutsMs: { nodeDrain: 60_000 } }),
      now,
    )
    expect(later.startTimers).toEqual({})
    expect(later.deadlineMs).toBe(now.getTime() + 30_000)
  })
})

describe('nodeDeletionTimedOut', () => {
  it.each([
    ['within the timeout', 0.5, 60_000, false],
    ['past the timeout', 2, 60_000, true],
    ['0 means retry forever', 60 * 24, 0, false],
  ])('%s', (_name, minutes, timeoutMs, expected) => {
    expect(nodeDeletionTimedOut(minutesAgo(minutes), timeoutMs, now)).toBe(expected)
  })
})
