import { describe, expect, it } from 'vitest'
import {
  interruptedOfferings,
  interruptionRecordNote,
} from '../../../../src/reconcile/machine-set/interrupted-offerings'
import type { MachineObject } from '../../../../src/reconcile/machine-set/types'
import type { RebalanceAction } from '../../../../src/reconcile/shared/interruption'
import { machine, noticed, t0 } from './builders'

const spotStatus = (zone = 'eu-west-1b') => ({
  instanceType: 't3.micro',
  availabilityZone: zone,
  spot: true,
})
const due = t0.getTime() + 120_000

describe('interruptedOfferings', () => {
  it.each<[string, MachineObject[], RebalanceAction, string[]]>([
    [
      'a spot interruption names its spot offering and deadline',
      [noticed('a', 'SpotInterruption', 120_000, { providerStatus: spotStatus() })],
      'Record',
      [`t3.micro/eu-west-1b/spot SpotInterruption ${due}`],
    ],
    [
      'a Machine already being deleted still names it (a pass may die after the delete)',
      [
        noticed('a', 'SpotInterruption', 120_000, {
          deleting: true,
          providerStatus: spotStatus(),
        }),
      ],
      'Record',
      [`t3.micro/eu-west-1b/spot SpotInterruption ${due}`],
    ],
    [
      'a rebalance recommendation the set replaces names its notice time',
      [noticed('a', 'RebalanceRecommended', undefined, { providerStatus: spotStatus() })],
      'Replace',
      [`t3.micro/eu-west-1b/spot RebalanceRecommended ${t0.getTime()}`],
    ],
    [
      'a rebalance recommendation only recorded names none',
      [noticed('a', 'RebalanceRecommended', undefined, { providerStatus: spotStatus() })],
      'Record',
      [],
    ],
    [
      'a scheduled maintenance or a stop is no capacity signal',
      [
        noticed('a', 'ScheduledMaintenance', 120_000, { providerStatus: spotStatus() }),
        noticed('b', 'InstanceStopping', 0, { providerStatus: spotStatus() }),
      ],
      'Replace',
      [],
    ],
    [
      'the zone falls back to spec.failureDomain',
      [
        noticed('a', 'SpotInterruption', 120_000, {
          zone: 'eu-west-1c',
          providerStatus: { instanceType: 't3.small', spot: true },
        }),
      ],
      'Record',
      [`t3.small/eu-west-1c/spot SpotInterruption ${due}`],
    ],
    [
      'no recorded instance type, an on-demand instance, a notice about another instance: none',
      [
        noticed('a', 'SpotInterruption', 120_000, { providerStatus: { spot: true } }),
        noticed('b', 'SpotInterruption', 120_000, {
          providerStatus: { ...spotStatus(), spot: false },
        }),
        noticed('c', 'SpotInterruption', 120_000, {
          otherInstance: true,
          providerStatus: spotStatus(),
        }),
        machine('d', { ready: true }),
      ],
      'Replace',
      [],
    ],
  ])('%s', (_name, machines, rebalance, expected) => {
    const found = interruptedOfferings(machines, rebalance, t0)
    expect(
      found.map((o) => `${o.instanceType}/${o.zone}/${o.capacityType} ${o.reason} ${o.atMs}`),
    ).toEqual(expected)
  })

  it('a notice past its grace names none', () => {
    const m = noticed('a', 'SpotInterruption', 120_000, { providerStatus: spotStatus() })
    expect(interruptedOfferings([m], 'Record', new Date(due + 16 * 60_000))).toEqual([])
  })
})

describe('interruptionRecordNote', () => {
  const entry = (expiresAt: string, reason = 'SpotInterruption') => ({
    instanceType: 't3.micro',
    zone: 'eu-west-1b',
    capacityType: 'spot',
    reason,
    expiresAt,
  })
  it.each<
    [string, ReturnType<typeof entry>[], ReturnType<typeof entry>[], string[], string | undefined]
  >([
    [
      'names the offering, its expiry and the zone it closes',
      [],
      [entry('2026-12-01T10:05:00.000Z')],
      ['eu-west-1b'],
      'EC2 is taking back t3.micro spot in eu-west-1b (SpotInterruption) until 2026-12-01T10:05:00.000Z: new Machines try other offerings first; eu-west-1b can host no new Machine of the class until then',
    ],
    [
      'without a closed zone',
      [],
      [entry('2026-12-01T10:05:00.000Z')],
      [],
      'EC2 is taking back t3.micro spot in eu-west-1b (SpotInterruption) until 2026-12-01T10:05:00.000Z: new Machines try other offerings first',
    ],
    [
      'nothing new: no Event',
      [entry('2026-12-01T10:05:00.000Z')],
      [entry('2026-12-01T10:05:00.000Z')],
      [],
      undefined,
    ],
    [
      'a capacity miss is not an interruption',
      [],
      [entry('2026-12-01T10:05:00.000Z', 'InsufficientInstanceCapacity')],
      [],
      undefined,
    ],
  ])('%s', (_name, before, after, closed, expected) => {
    expect(interruptionRecordNote(before, after, closed)?.message).toEqual(expected)
  })
})
