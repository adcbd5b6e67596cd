import { describe, expect, it } from 'vitest'
import {
  type DeletionObservation,
  excludeDrainAnnotation,
  excludeVolumeWaitAnnotation,
  nextDeletionStep,
  nodeDeletionTimedOut,
  preDrainHookPrefix,
  preTerminateHookPrefix,
} from '../../../../src/reconcile/machine/deletion'

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

function hookWait(reason: string, hook: string) {
  return {
    wait: { reason, message: `Waiting for lifecycle hooks to be removed: ${hook}` },
    on: 'hook',
  }
}

describe('nextDeletionStep', () => {
  it.each<[string, DeletionObservation, unknown]>([
    [
      'a pre-drain hook holds the Machine',
      obs({ annotations: { [`${preDrainHookPrefix}/backup`]: 'ops' } }),
      hookWait('WaitingForPreDrainHook', `${preDrainHookPrefix}/backup`),
    ],
    [
      'without hooks it drains the Node',
      obs(),
      { type: 'drain-node', nodeName: 'n1', nodeUnreachable: false },
    ],
    [
      'an unreachable Node is drained with the unreachable flag',
      obs({ node: { ...node, unreachable: true } }),
      { type: 'drain-node', nodeName: 'n1', nodeUnreachable: true },
    ],
    [
      'no Node means nothing to drain',
      obs({ node: undefined }),
      { type: 'skip-drain', reason: 'NodeNotFound' },
    ],
    [
      'the exclude annotation skips the drain',
      obs({ annotations: { [excludeDrainAnnotation]: '' } }),
      { type: 'skip-drain', reason: 'DrainExcluded' },
    ],
    [
      'a drain past nodeDrainTimeout is abandoned',
      obs({ timers: { nodeDrainStartTime: minutesAgo(6) }, timeoutsMs: { nodeDrain: 5 * 60_000 } }),
      { type: 'skip-drain', reason: 'NodeDrainTimeout' },
    ],
    [
      'after the drain it waits for attached volumes',
      obs({ drained: true, node: { ...node, attachedVolumes: ['vol-1'] } }),
      {
        wait: { reason: 'WaitingForVolumeDetach', message: 'Waiting for volumes to detach: vol-1' },
        on: 'stage',
      },
    ],
    [
      'volumes on an unreachable Node are not waited for',
      obs({ drained: true, node: { ...node, unreachable: true, attachedVolumes: ['vol-1'] } }),
      { type: 'skip-volume-wait', reason: 'NodeUnreachable' },
    ],
    [
      'a drain pass that did not finish waits instead of draining again in the same reconcile',
      obs({ drainProgress: '1 pod left' }),
      { wait: { reason: 'DrainingNode', message: 'Draining Node n1: 1 pod left' }, on: 'stage' },
    ],
    [
      'no Node means no volumes to wait for',
      obs({ drained: true, node: undefined }),
      { type: 'skip-volume-wait', reason: 'NodeNotFound' },
    ],
    [
      'the exclude annotation skips the volume wait',
      obs({
        drained: true,
        annotations: { [excludeVolumeWaitAnnotation]: '' },
        node: { ...node, attachedVolumes: ['vol-1'] },
      }),
      { type: 'skip-volume-wait', reason: 'VolumeWaitExcluded' },
    ],
    [
      'a volume wait past nodeVolumeDetachTimeout is abandoned',
      obs({
        drained: true,
        node: { ...node, attachedVolumes: ['vol-1'] },
        timers: { waitForNodeVolumeDetachStartTime: minutesAgo(6) },
        timeoutsMs: { nodeVolumeDetach: 5 * 60_000 },
      }),
      { type: 'skip-volume-wait', reason: 'VolumeDetachTimeout' },
    ],
    [
      'a pre-terminate hook holds the Machine after drain',
      obs({ drained: true, annotations: { [`${preTerminateHookPrefix}/lb`]: '' } }),
      hookWait('WaitingForPreTerminateHook', `${preTerminateHookPrefix}/lb`),
    ],
    ['then the instance is deleted', obs({ drained: true }), { type: 'terminate-instance' }],
    [
      'once the instance is gone the Node is deleted',
      obs({ instanceGone: true }),
      { type: 'delete-node', nodeName: 'n1', giveUpOnFailure: false },
    ],
    [
      'past nodeDeletionTimeout a failing Node delete is given up',
      obs({ instanceGone: true, deletedAt: minutesAgo(2), timeoutsMs: { nodeDeletion: 60_000 } }),
      { type: 'delete-node', nodeName: 'n1', giveUpOnFailure: true },
    ],
    [
      'a Node whose deletion already started (the kwok instance was the Node) is not deleted again',
      obs({ instanceGone: true, node: { ...node, deleting: true } }),
      { type: 'remove-finalizer' },
    ],
    [
      'a Node being deleted while the instance still runs is drained as before',
      obs({ node: { ...node, deleting: true } }),
      { type: 'drain-node', nodeName: 'n1', nodeUnreachable: false },
    ],
    [
      'hooks no longer matter once the instance is gone',
      obs({
        instanceGone: true,
        node: undefined,
        annotations: { [`${preDrainHookPrefix}/x`]: '' },
      }),
      { type: 'remove-finalizer' },
    ],
    [
      'spec lifecycle hooks hold the Machine like annotation hooks',
      obs({ drained: true, specHooks: { preDrain: [], preTerminate: ['lb-deregister'] } }),
      hookWait('WaitingForPreTerminateHook', 'lb-deregister'),
    ],
  ])('%s', (_name, observation, expected) => {
    expect(nextDeletionStep(observation, now).next).toEqual(expected)
  })

  it('starts each timer once and reports the drain deadline', () => {
    const first = nextDeletionStep(obs({ timeoutsMs: { nodeDrain: 60_000 } }), now)
    expect(first.startTimers).toEqual({ nodeDrainStartTime: now.toISOString() })
    expect(first.deadlineMs).toBe(now.getTime() + 60_000)
    const later = nextDeletionStep(
      obs({ timers: { nodeDrainStartTime: minutesAgo(0.5) }, timeoutsMs: { nodeDrain: 60_000 } }),
      now,
    )
    expect(later.startTimers).toEqual({})
    expect(later.deadlineMs).toBe(now.getTime() + 30_000)
  })

  it.each<[string, Partial<DeletionObservation>, unknown]>([
    [
      'before the notice deadline the Node is drained',
      { interruptionDeadlineMs: now.getTime() + 60_000 },
      { type: 'drain-node', nodeName: 'n1', nodeUnreachable: false },
    ],
    [
      "at the notice deadline the drain stops (the instance goes): pods not out by then aren't waited for",
      { interruptionDeadlineMs: now.getTime(), timers: { nodeDrainStartTime: minutesAgo(2) } },
      { type: 'skip-drain', reason: 'InterruptionDeadline' },
    ],
    [
      'past the notice deadline volumes are not waited for',
      {
        interruptionDeadlineMs: now.getTime() - 1,
        drained: true,
        node: { ...node, attachedVolumes: ['vol-1'] },
      },
      { type: 'skip-volume-wait', reason: 'InterruptionDeadline' },
    ],
  ])('%s', (_name, overrides, expected) => {
    expect(nextDeletionStep(obs(overrides), now).next).toEqual(expected)
  })

  it('the drain is looked at again by the notice deadline when nodeDrainTimeout ends later', () => {
    const step = nextDeletionStep(
      obs({ timeoutsMs: { nodeDrain: 600_000 }, interruptionDeadlineMs: now.getTime() + 90_000 }),
      now,
    )
    expect(step.deadlineMs).toBe(now.getTime() + 90_000)
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
