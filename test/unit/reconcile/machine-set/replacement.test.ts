import { describe, expect, it } from 'vitest'
import { planMachineSet } from '../../../../src/reconcile/machine-set/plan'
import {
  planReplacement,
  type ReplacementBackoff,
  replacementDelayMs,
} from '../../../../src/reconcile/machine-set/replacement'
import { computeMachineSetStatus } from '../../../../src/reconcile/machine-set/status'
import type { MachineObject } from '../../../../src/reconcile/machine-set/types'
import { machine, machineSet, t0 } from './builders'

const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000)
const badAmi = {
  reason: 'InvalidAMI',
  message: 'InvalidAMIID.NotFound: The image id ami-0bad does not exist',
}
const failed = (name: string) => machine(name, { failed: badAmi })
const backoff = (rounds: number, last: number, next: number): ReplacementBackoff => ({
  consecutiveFailures: rounds,
  lastReplacementTime: at(last).toISOString(),
  nextReplacementTime: at(next).toISOString(),
})
const names = (ms: MachineObject[]) => ms.map((m) => m.metadata.name)

describe('replacementDelayMs', () => {
  it.each([
    [0, 0],
    [1, 10_000],
    [2, 20_000],
    [5, 160_000],
    [6, 300_000],
    [60, 300_000],
  ])('after %i rounds waits %i ms', (rounds, ms) => {
    expect(replacementDelayMs(rounds, { baseDelayMs: 10_000, maxDelayMs: 300_000 })).toBe(ms)
  })
})

describe('planReplacement', () => {
  it.each<[string, MachineObject[], ReplacementBackoff | undefined, number, string[], object]>([
    ['nothing failed, nothing to do', [machine('a')], undefined, 0, [], {}],
    [
      'the first failure is replaced at once and opens the backoff',
      [failed('a'), machine('b')],
      undefined,
      0,
      ['a'],
      { backoff: { ...backoff(1, 0, 10), classGeneration: 2 } },
    ],
    [
      'a failure during the backoff waits for its end',
      [failed('a')],
      backoff(1, 0, 10),
      4,
      [],
      { backoff: backoff(1, 0, 10), requeueAfterMs: 6000 },
    ],
    [
      'a failure after the backoff is a second round, twice as long',
      [failed('a'), failed('b')],
      backoff(1, 0, 10),
      12,
      ['a', 'b'],
      { backoff: { ...backoff(2, 12, 32), classGeneration: 2 } },
    ],
    [
      'a Machine Ready after the last round resets the count',
      [failed('a'), machine('b', { ready: at(20).toISOString() })],
      backoff(3, 10, 50),
      30,
      ['a'],
      { backoff: { ...backoff(1, 30, 40), classGeneration: 2 } },
    ],
    [
      'a Machine Ready before the last round does not',
      [failed('a'), machine('b', { ready: at(5).toISOString() })],
      backoff(3, 10, 50),
      30,
      [],
      { backoff: backoff(3, 10, 50), requeueAfterMs: 20_000 },
    ],
    [
      'a Machine already being deleted is not replaced again',
      [machine('a', { failed: badAmi, deleting: true })],
      undefined,
      0,
      [],
      { backoff: undefined },
    ],
    [
      'a MachineClass changed since the last round ends the backoff and its count',
      [failed('a')],
      { ...backoff(4, 0, 80), classGeneration: 1 },
      5,
      ['a'],
      { backoff: { ...backoff(1, 5, 15), classGeneration: 2 } },
    ],
  ])('%s', (_name, owned, previous, seconds, replace, expected) => {
    const plan = planReplacement({ owned, previous, now: at(seconds), classGeneration: 2 })
    expect(names(plan.replace)).toEqual(replace)
    expect(plan).toMatchObject(expected)
  })
})

describe('planMachineSet with Failed Machines', () => {
  it('deletes a Failed Machine and creates its replacement once it is gone, not before', () => {
    const set = machineSet(2)
    const plan = planMachineSet({ set, machines: [failed('a'), machine('b')], now: t0 })
    expect(plan.actions.map((a) => `${a.type}:${a.machine.metadata.name}`)).toEqual(['delete:a'])
  })

  it('holds a Failed Machine while the backoff runs and looks again when it ends', () => {
    const set = { ...machineSet(2), status: { replacement: backoff(2, 0, 20) } }
    const plan = planMachineSet({ set, machines: [failed('a'), machine('b')], now: at(5) })
    expect(plan.actions).toEqual([])
    expect(plan.requeueAfterMs).toBe(15_000)
  })

  it('bounds a bad AMI to a few rounds over 15 minutes however fast Machines fail', () => {
    // Every Machine fails the instant it exists; the set runs every second for 15 minutes.
    let set = machineSet(2)
    let machines: MachineObject[] = []
    let created = 0
    for (let s = 0; s < 900; s++) {
      const plan = planMachineSet({ set, machines, now: at(s) })
      for (const action of plan.actions) {
        if (action.type === 'delete') machines = machines.filter((m) => m !== action.machine)
        if (action.type === 'create') {
          created++
          machines.push(failed(action.machine.metadata.name))
        }
      }
      const { status } = computeMachineSetStatus(
        set,
        { owned: plan.owned, replacement: plan.replacement },
        at(s),
      )
      set = { ...set, status }
    }
    // Rounds at 0, 10, 30, 70, 150, 310, 610 s (then 910): 2 + 7 x 2 creates.
    expect(created).toBe(16)
    const condition = set.status?.conditions?.find((c) => c.type === 'ReplicaFailure')
    expect(condition).toMatchObject({ status: 'True', reason: 'MachinesFailed' })
    expect(condition?.message).toMatch(
      /^2 Machines failed: InvalidAMI: InvalidAMIID.NotFound: The image id ami-0bad does not exist; fix MachineClass small; 7 replacement rounds without a Ready Machine, next replacement not before /,
    )
    expect(set.status?.conditions?.find((c) => c.type === 'Ready')?.reason).toBe('MachinesFailed')
  })
})
