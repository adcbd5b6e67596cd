import { describe, expect, it } from 'vitest'
import { hostableZones, zonesFrom } from '../../../../src/reconcile/shared/hostable-zones'

const t0 = new Date('2026-12-04T10:00:00Z')

describe('zonesFrom', () => {
  it.each<[string, Record<string, unknown> | undefined, unknown, string[] | undefined]>([
    [
      'the zones the provider offers first',
      { status: { offeredZones: ['w'], zones: ['x'] }, spec: { providerSpec: { zones: ['y'] } } },
      undefined,
      ['w'],
    ],
    [
      'then the class status zones (written before offeredZones)',
      { status: { zones: ['x'] }, spec: { providerSpec: { zones: ['y'] } } },
      undefined,
      ['x'],
    ],
    [
      'then the class provider spec',
      { spec: { providerSpec: { zones: ['y'] } } },
      undefined,
      ['y'],
    ],
    ['then the inline provider spec', undefined, { zones: ['z'] }, ['z']],
    ['none', { spec: {} }, {}, undefined],
  ])('%s', (_name, cls, inline, expected) => {
    expect(zonesFrom(cls, inline)).toEqual(expected)
  })
})

describe('hostableZones', () => {
  const later = new Date(t0.getTime() + 60_000).toISOString()
  const earlier = new Date(t0.getTime() - 1).toISOString()
  const miss = (
    zone: string,
    instanceType: string,
    capacityType = 'on-demand',
    expiresAt = later,
  ) => ({
    zone,
    instanceType,
    capacityType,
    reason: 'InsufficientInstanceCapacity',
    expiresAt,
  })
  const cls = (
    providerSpec: object,
    unavailableOfferings: object[],
    zoneInstanceTypes?: Array<{ zone: string; instanceTypes: string[] }>,
  ) => ({
    spec: { providerSpec },
    status: { unavailableOfferings, ...(zoneInstanceTypes ? { zoneInstanceTypes } : {}) },
  })
  const m7iNotInC = [
    { zone: 'a', instanceTypes: ['m7i', 'm6i'] },
    { zone: 'b', instanceTypes: ['m7i', 'm6i'] },
    { zone: 'c', instanceTypes: ['m6i'] },
  ]
  it.each<[string, ReturnType<typeof cls>, string[]]>([
    ['no misses, every zone', cls({ instanceType: 'm5' }, []), ['a', 'b', 'c']],
    [
      'a zone without its only offering is out',
      cls({ instanceType: 'm5' }, [miss('b', 'm5')]),
      ['a', 'c'],
    ],
    [
      'a zone with another type left stays',
      cls({ instanceTypes: ['m5', 'm6'] }, [miss('b', 'm5')]),
      ['a', 'b', 'c'],
    ],
    [
      'a type the zone does not offer does not keep it open (issue 42, item 7)',
      cls({ instanceTypes: ['m7i', 'm6i'] }, [miss('c', 'm6i')], m7iNotInC),
      ['a', 'b'],
    ],
    [
      'a zone offering another type with capacity stays',
      cls({ instanceTypes: ['m7i', 'm6i'] }, [miss('a', 'm6i')], m7iNotInC),
      ['a', 'b', 'c'],
    ],
    [
      'a zone missing from zoneInstanceTypes counts every type',
      cls({ instanceTypes: ['m7i', 'm6i'] }, [miss('c', 'm6i')], m7iNotInC.slice(0, 2)),
      ['a', 'b', 'c'],
    ],
    [
      'spot and on-demand both count',
      cls({ instanceType: 'm5', capacityTypes: ['spot', 'on-demand'] }, [miss('a', 'm5', 'spot')]),
      ['a', 'b', 'c'],
    ],
    [
      'an expired miss is forgotten',
      cls({ instanceType: 'm5' }, [miss('b', 'm5', 'on-demand', earlier)]),
      ['a', 'b', 'c'],
    ],
    [
      'when every zone is out, all stay',
      cls({ instanceType: 'm5' }, [miss('a', 'm5'), miss('b', 'm5'), miss('c', 'm5')]),
      ['a', 'b', 'c'],
    ],
  ])('%s', (_name, machineClass, expected) => {
    expect(hostableZones(['a', 'b', 'c'], machineClass, t0)).toEqual(expected)
  })
})
