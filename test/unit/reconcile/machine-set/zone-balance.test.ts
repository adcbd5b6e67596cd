import { describe, expect, it } from 'vitest'
import { pickVictims } from '../../../../src/reconcile/machine-set/delete-order'
import { planMachineSet } from '../../../../src/reconcile/machine-set/plan'
import type { MachineObject } from '../../../../src/reconcile/machine-set/types'
import { chooseZones } from '../../../../src/reconcile/machine-set/zone-balance'
import { machine, machineSet, t0 } from './builders'

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
