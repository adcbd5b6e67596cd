import { describe, expect, it } from 'vitest'
import { computeMachineSetStatus, zoneSpreadOf } from '../../../../src/reconcile/machine-set/status'
import type { MachineObject } from '../../../../src/reconcile/machine-set/types'
import { machine, machineSet, t0 } from './builders'

const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000)
const condition = (status: ReturnType<typeof computeMachineSetStatus>['status'], type: string) =>
  status.conditions?.find((c) => c.type === type)

describe('computeMachineSetStatus', () => {
  it.each<[string, number, number, MachineObject[], Record<string, unknown>, string]>([
    [
      'all ready and available',
      2,
      0,
      [machine('a', { ready: true }), machine('b', { ready: true })],
      { replicas: 2, readyReplicas: 2, availableReplicas: 2, fullyLabeledReplicas: 2 },
      'Ready',
    ],
    [
      'missing Machines: scaling up',
      3,
      0,
      [machine('a', { ready: true })],
      { replicas: 1, readyReplicas: 1, availableReplicas: 1 },
      'ScalingUp',
    ],
    [
      'a Machine being deleted counts in replicas, not in ready',
      1,
      0,
      [machine('a', { ready: true }), machine('b', { ready: true, deleting: true })],
      { replicas: 2, readyReplicas: 1, availableReplicas: 1 },
      'ScalingDown',
    ],
    [
      'not ready yet',
      1,
      0,
      [machine('a')],
      { replicas: 1, readyReplicas: 0, availableReplicas: 0 },
      'MachinesNotReady',
    ],
    [
      'ready for less than minReadySeconds',
      1,
      60,
      [machine('a', { ready: at(-10).toISOString() })],
      { replicas: 1, readyReplicas: 1, availableReplicas: 0 },
      'WaitingForMinReadySeconds',
    ],
    [
      'a Machine missing a template label is not fully labelled',
      1,
      0,
      [machine('a', { ready: true, labels: { pool: 'a' } })],
      { fullyLabeledReplicas: 1 },
      'Ready',
    ],
  ])('%s', (_name, replicas, minReadySeconds, machines, counters, readyReason) => {
    const { status } = computeMachineSetStatus(
      machineSet(replicas, { minReadySeconds }),
      { owned: machines },
      t0,
    )
    expect(status).toMatchObject({ ...counters, selector: 'pool=a', observedGeneration: 3 })
    expect(condition(status, 'Ready')?.reason).toBe(readyReason)
  })

  it('asks to look again when the next Machine passes minReadySeconds', () => {
    const result = computeMachineSetStatus(
      machineSet(2, { minReadySeconds: 60 }),
      {
        owned: [
          machine('a', { ready: at(-10).toISOString() }),
          machine('b', { ready: at(-50).toISOString() }),
        ],
      },
      t0,
    )
    expect(result.requeueAfterMs).toBe(10_000)
  })

  it('keeps lastTransitionTime while a condition holds and moves it on a flip', () => {
    const first = computeMachineSetStatus(machineSet(1), { owned: [machine('a')] }, t0).status
    const set = { ...machineSet(1), status: first }
    const same = computeMachineSetStatus(set, { owned: [machine('a')] }, at(30)).status
    const flipped = computeMachineSetStatus(
      set,
      { owned: [machine('a', { ready: true })] },
      at(30),
    ).status
    expect(condition(same, 'MachinesReady')?.lastTransitionTime).toBe(t0.toISOString())
    expect(condition(flipped, 'MachinesReady')?.lastTransitionTime).toBe(at(30).toISOString())
  })

  it('counts template labels for fullyLabeledReplicas', () => {
    const set = machineSet(1, {
      template: {
        metadata: { labels: { pool: 'a', team: 'x' } },
        spec: { classRef: { name: 'c' }, nodeDeletionTimeout: '10s' },
      },
    })
    const { status } = computeMachineSetStatus(set, { owned: [machine('a', { ready: true })] }, t0)
    expect(status.fullyLabeledReplicas).toBe(0)
  })
})

describe('zoneSpreadOf', () => {
  const inZone = (name: string, zone?: string): MachineObject => {
    const m = machine(name)
    return { ...m, spec: { ...m.spec, ...(zone ? { failureDomain: zone } : {}) } }
  }
  it.each<[string, MachineObject[], string]>([
    [
      'counts per zone, by zone name',
      [inZone('a', 'z-b'), inZone('b', 'z-a'), inZone('c', 'z-b')],
      'z-a=1,z-b=2',
    ],
    ['leaves Machines without a zone out', [inZone('a', 'z-a'), inZone('b')], 'z-a=1'],
    ['is empty, not absent, when none has a zone', [inZone('a')], ''],
  ])('%s', (_, machines, spread) => {
    expect(zoneSpreadOf(machines)).toEqual({ zoneSpread: spread })
  })
})
