import { describe, expect, it } from 'vitest'
import { pickVictims } from '../../../../src/reconcile/machine-set/delete-order'
import { planMachineSet } from '../../../../src/reconcile/machine-set/plan'
import { recordOf } from '../../../../src/reconcile/machine-set/template-class'
import type { MachineObject } from '../../../../src/reconcile/machine-set/types'
import { chooseZones } from '../../../../src/reconcile/machine-set/zone-balance'
import { machine, machineSet, noticed, t0 } from './builders'

const zones = ['a', 'b', 'c']
const inZone = (name: string, zone: string | undefined, extra = {}): MachineObject => {
  const m = machine(name, { ready: true, ...extra })
  return { ...m, spec: { ...m.spec, ...(zone ? { failureDomain: zone } : {}) } }
}
const spread = (list: string) => list.split('').map((z, i) => inZone(`m${i}`, z))

describe('chooseZones', () => {
  it.each<[string, readonly string[], MachineObject[], number, string[]]>([
    ['an empty set spreads in list order', zones, [], 4, ['a', 'b', 'c', 'a']],
    ['fills the emptiest zone first', zones, spread('aab'), 3, ['c', 'b', 'c']],
    ['ignores Machines being deleted', zones, [inZone('x', 'a', { deleting: true })], 1, ['a']],
    ['ignores zones no longer offered', ['b', 'c'], spread('aaa'), 2, ['b', 'c']],
    ['a zone that cannot host now gets nothing', ['a', 'c'], spread('ac'), 2, ['a', 'c']],
    ['no zones, no choice', [], [], 2, []],
  ])('%s', (_name, offered, machines, count, expected) => {
    expect(chooseZones(offered, machines, count)).toEqual(expected)
  })

  it('keeps every zone within one of the others, however the set grows', () => {
    let machines: MachineObject[] = []
    for (let n = 1; n <= 20; n++) {
      const [zone] = chooseZones(zones, machines, 1)
      machines = [...machines, inZone(`m${n}`, zone)]
      const counts = zones.map((z) => machines.filter((m) => m.spec?.failureDomain === z).length)
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1)
    }
  })
})

describe('zone-aware scale-down', () => {
  it.each<[string, MachineObject[], number, string[]]>([
    ['takes from the most populated zone first', spread('aaabbc'), 2, ['a', 'a']],
    ['then evens the rest out', spread('aaabbc'), 3, ['a', 'a', 'b']],
    [
      'an unhealthy Machine still goes before a healthy one of a bigger zone',
      [...spread('aaa'), inZone('sick', 'b', { ready: false })],
      1,
      ['b'],
    ],
    [
      'Machines without a zone are one group',
      [inZone('x', undefined), inZone('y', undefined), ...spread('ab')],
      1,
      [''],
    ],
  ])('%s', (_name, machines, count, expected) => {
    const victims = pickVictims(machines, count, 'Oldest')
    expect(victims.map((m) => m.spec?.failureDomain ?? '')).toEqual(expected)
  })
})

describe('planMachineSet with zones', () => {
  it('records each new Machine zone as spec.failureDomain', () => {
    const plan = planMachineSet({ set: machineSet(3), machines: spread('a'), now: t0, zones })
    const created = plan.actions.flatMap((a) => (a.type === 'create' ? [a.machine] : []))
    expect(created.map((m) => m.spec?.failureDomain)).toEqual(['b', 'c'])
  })

  it('leaves a zone the template names alone', () => {
    const set = machineSet(2)
    set.spec.template.spec.failureDomain = 'z'
    const plan = planMachineSet({ set, machines: [], now: t0, zones })
    expect(plan.actions.map((a) => a.machine.spec?.failureDomain)).toEqual(['z', 'z'])
  })
})

describe('the zone decision of a pass: leaving Machines, unavailable offerings, skewed starts', () => {
  const later = new Date(t0.getTime() + 180_000).toISOString()
  const spotStatus = { instanceType: 't3.micro', spot: true }
  const interrupted = (name: string, zone: string) =>
    noticed(name, 'SpotInterruption', 120_000, { zone, providerStatus: spotStatus })
  const failedIn = (name: string, zone: string) =>
    inZone(name, zone, { ready: false, failed: { reason: 'CreateError', message: 'x' } })
  const expiredIn = (name: string, zone: string) => {
    const m = inZone(name, zone)
    m.metadata.creationTimestamp = new Date(t0.getTime() - 2 * 3_600_000).toISOString()
    return m
  }
  /** The hostable zones of a spot class (capacity types `capacity`) with `out` listed. */
  const classZones = (capacity: string[], out: Array<[string, string]>) =>
    recordOf(
      {
        apiVersion: 'machine-api.dev/v1beta1',
        kind: 'MachineClass',
        metadata: { name: 'small', namespace: 'ns' },
        spec: {
          provider: 'aws',
          providerSpec: { instanceType: 't3.micro', capacityTypes: capacity },
        },
        status: {
          offeredZones: zones,
          unavailableOfferings: out.map(([zone, reason]) => ({
            instanceType: 't3.micro',
            zone,
            capacityType: 'spot',
            reason,
            expiresAt: later,
          })),
        },
      } as Parameters<typeof recordOf>[0],
      t0,
    ).zones ?? []

  it.each<[string, number, MachineObject[], readonly string[], string[], string | undefined]>([
    [
      'an interrupted Machine is leaving: its replacement takes its zone',
      3,
      [inZone('m0', 'a'), interrupted('m1', 'b'), inZone('m2', 'c')],
      zones,
      ['b'],
      undefined,
    ],
    [
      'two interrupted at once: one replacement in each of their zones',
      6,
      [...spread('aabc'), interrupted('x', 'b'), interrupted('y', 'c')],
      zones,
      ['b', 'c'],
      undefined,
    ],
    [
      'its zone without an offering left (spot only): the emptiest other zone',
      3,
      [inZone('m0', 'a'), interrupted('m1', 'b'), inZone('m2', 'c')],
      classZones(['spot'], [['b', 'SpotInterruption']]),
      ['a'],
      undefined,
    ],
    [
      'its zone still hosts on-demand: the replacement stays in it',
      3,
      [inZone('m0', 'a'), interrupted('m1', 'b'), inZone('m2', 'c')],
      classZones(['spot', 'on-demand'], [['b', 'SpotInterruption']]),
      ['b'],
      undefined,
    ],
    [
      'every zone out: all stay and the balance holds',
      3,
      [inZone('m0', 'a'), interrupted('m1', 'b'), inZone('m2', 'c')],
      classZones(
        ['spot'],
        [
          ['a', 'SpotInterruption'],
          ['b', 'SpotInterruption'],
          ['c', 'InsufficientInstanceCapacity'],
        ],
      ),
      ['b'],
      undefined,
    ],
    [
      'a Failed Machine keeps its replica while this pass deletes it: nothing created yet',
      3,
      [inZone('m0', 'a'), inZone('m1', 'b'), failedIn('m2', 'c')],
      zones,
      [],
      undefined,
    ],
    [
      'a Machine being deleted (remediated) keeps its replica but not its zone',
      5,
      [
        inZone('m0', 'a'),
        inZone('m1', 'b', { deleting: true }),
        inZone('m2', 'c'),
        inZone('m3', 'a'),
      ],
      zones,
      ['b'],
      undefined,
    ],
    [
      "an expired Machine's surge replacement takes its zone (it leaves once that is available)",
      6,
      [...spread('aac'), expiredIn('old', 'b'), inZone('m8', 'b'), inZone('m9', 'c')],
      zones,
      ['b'],
      '1h',
    ],
    [
      'two expired, one replaced at a time: the surge takes the zone of the one that goes first',
      6,
      [
        expiredIn('old1', 'b'),
        expiredIn('old2', 'a'),
        inZone('m0', 'a'),
        inZone('m1', 'b'),
        inZone('m2', 'c'),
        inZone('m3', 'c'),
      ],
      zones,
      ['b'],
      '1h',
    ],
    [
      'a skewed start is evened out by the creates, emptiest zone first',
      6,
      spread('aaa'),
      zones,
      ['b', 'c', 'b'],
      undefined,
    ],
    [
      'a skewed start with an interruption in the crowded zone moves the replica out of it',
      4,
      [...spread('aa'), interrupted('x', 'a'), inZone('m9', 'b')],
      zones,
      ['c'],
      undefined,
    ],
  ])('%s', (_name, replicas, machines, hostable, expected, expireAfter) => {
    const set = machineSet(replicas)
    if (expireAfter) set.spec.template.spec.expireAfter = expireAfter
    const plan = planMachineSet({ set, machines, now: t0, zones: hostable })
    const created = plan.actions.flatMap((a) => (a.type === 'create' ? [a.machine] : []))
    expect(created.map((m) => m.spec?.failureDomain)).toEqual(expected)
  })
})
