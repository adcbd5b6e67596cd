import { describe, expect, it } from 'vitest'
import { computeDeploymentStatus } from '../../../../src/reconcile/machine-deployment/status'
import type { MachineSetObject } from '../../../../src/reconcile/machine-set/types'
import { deployment, now, setFor } from './builders'

const later = (seconds: number) => new Date(now.getTime() + seconds * 1000)
const condition = (status: { conditions?: Array<{ type: string }> }, type: string) =>
  status.conditions?.find((c) => c.type === type) as
    | { status: string; reason: string; message: string }
    | undefined

/** The current set with one expired Machine above replicas, its replacement held or not. */
function expiringSet(held: 'True' | 'False', since: Date): MachineSetObject {
  const set = setFor('b', 2, 3, 4, 3)
  const reason = held === 'True' ? 'DisruptionBudget' : 'NotHeld'
  const message = held === 'True' ? 'Expiry replacements held by a budget of 0' : 'not held'
  set.status = {
    ...set.status,
    conditions: [
      {
        type: 'ReplacementsHeld',
        status: held,
        reason,
        message,
        lastTransitionTime: since.toISOString(),
      },
    ],
  }
  return set
}

describe('computeDeploymentStatus', () => {
  it.each<
    [string, ReturnType<typeof deployment>, MachineSetObject[], string, Record<string, unknown>]
  >([
    [
      'complete',
      deployment(3),
      [setFor('a', 1, 3)],
      'NewMachineSetAvailable',
      {
        replicas: 3,
        updatedReplicas: 3,
        availableReplicas: 3,
        unavailableReplicas: 0,
        phase: 'Running',
      },
    ],
    [
      'rolling out',
      deployment(3, 'b'),
      [setFor('a', 1, 2), setFor('b', 2, 2, 2, 1)],
      'MachineSetUpdated',
      { replicas: 4, updatedReplicas: 2, availableReplicas: 3, phase: 'ScalingDown' },
    ],
    [
      'paused',
      deployment(3, 'b', { paused: true }),
      [setFor('a', 1, 3)],
      'Paused',
      { replicas: 3, updatedReplicas: 0 },
    ],
  ])('%s', (_name, md, sets, reason, counters) => {
    const current = sets.find(
      (s) => s.spec.template.spec.classRef?.name === md.spec.template.spec.classRef?.name,
    )
    const { status } = computeDeploymentStatus(
      md,
      sets,
      { current: md.spec.paused ? undefined : current, progressed: false },
      now,
    )
    expect(status).toMatchObject({ ...counters, selector: 'app=web', observedGeneration: 2 })
    expect(condition(status, 'Progressing')?.reason).toBe(reason)
  })

  it('reports ProgressDeadlineExceeded when nothing moved for progressDeadlineSeconds', () => {
    const md = deployment(3, 'b', { progressDeadlineSeconds: 60 })
    const sets = [setFor('a', 1, 3), setFor('b', 2, 1, 1, 0)]
    const input = { current: sets[1], progressed: false }
    const first = computeDeploymentStatus(md, sets, input, now)
    expect(first.requeueAfterMs).toBe(60_000)
    const again = computeDeploymentStatus({ ...md, status: first.status }, sets, input, later(30))
    expect(condition(again.status, 'Progressing')?.reason).toBe('MachineSetUpdated')
    expect(again.requeueAfterMs).toBe(30_000)
    const stuck = computeDeploymentStatus({ ...md, status: first.status }, sets, input, later(61))
    expect(condition(stuck.status, 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
    })
    const moving = computeDeploymentStatus(
      { ...md, status: stuck.status },
      sets,
      { ...input, progressed: true },
      later(62),
    )
    expect(condition(moving.status, 'Progressing')?.status).toBe('True')
    expect(moving.status.lastProgressTime).toBe(later(62).toISOString())
  })

  it('a replacement held by a disruption budget is no lack of progress; the deadline restarts when the hold ends', () => {
    const md = deployment(3, 'b', { progressDeadlineSeconds: 60 })
    const holding = expiringSet('True', now)
    const input = { current: holding, progressed: false }
    const first = computeDeploymentStatus(md, [holding], input, now)
    const longAfter = computeDeploymentStatus(
      { ...md, status: first.status },
      [holding],
      input,
      later(3600),
    )
    expect(condition(longAfter.status, 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'ReplacementsHeld',
    })
    expect(longAfter.requeueAfterMs).toBeUndefined()

    // The budget lets it go: the set's condition turns False with nothing else moved yet.
    const released = expiringSet('False', later(3600))
    const passAfterRelease = (status: typeof md.status, seconds: number) =>
      computeDeploymentStatus(
        { ...md, status },
        [released],
        { current: released, progressed: false },
        later(seconds),
      )
    const atRelease = passAfterRelease(longAfter.status, 3601)
    expect(condition(atRelease.status, 'Progressing')?.reason).toBe('MachineSetUpdated')
    expect(atRelease.requeueAfterMs).toBe(60_000)
    const stuck = passAfterRelease(atRelease.status, 3662)
    expect(condition(stuck.status, 'Progressing')?.reason).toBe('ProgressDeadlineExceeded')
  })

  it('is Available while at least replicas - maxUnavailable Machines are', () => {
    const md = deployment(4, 'a', {
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } },
    })
    const ok = computeDeploymentStatus(
      md,
      [setFor('a', 1, 4, 4, 3)],
      { current: undefined, progressed: false },
      now,
    )
    expect(condition(ok.status, 'Available')?.status).toBe('True')
    const low = computeDeploymentStatus(
      md,
      [setFor('a', 1, 4, 4, 2)],
      { current: undefined, progressed: false },
      now,
    )
    expect(condition(low.status, 'Available')?.reason).toBe('MinimumReplicasUnavailable')
  })
})

describe('ReplicaFailure rolled up from the sets', () => {
  const failing = (set: MachineSetObject, message: string): MachineSetObject => ({
    ...set,
    metadata: { ...set.metadata, name: set.metadata.uid?.replace('uid-', '') ?? '' },
    status: {
      ...set.status,
      conditions: [
        {
          type: 'ReplicaFailure',
          status: 'True',
          reason: 'MachinesFailed',
          message,
          lastTransitionTime: now.toISOString(),
        },
      ],
    },
  })
  it.each<[string, MachineSetObject[], string, string]>([
    ['no set fails', [setFor('a', 1, 3)], 'False', 'No Machine has failed'],
    [
      'a set fails',
      [
        setFor('a', 1, 3),
        failing(setFor('b', 2, 2), '2 Machines failed: InvalidAMI; fix MachineClass c'),
      ],
      'True',
      'MachineSet b: 2 Machines failed: InvalidAMI; fix MachineClass c',
    ],
    [
      'two sets fail',
      [failing(setFor('b', 2, 2), 'x'), failing(setFor('a', 1, 3), 'y')],
      'True',
      'MachineSet a: y (and 1 more MachineSets)',
    ],
  ])('%s', (_name, sets, status, message) => {
    const result = computeDeploymentStatus(
      deployment(3, 'b'),
      sets,
      { current: sets[0], progressed: false },
      now,
    )
    expect(condition(result.status, 'ReplicaFailure')).toMatchObject({ status, message })
  })
})
