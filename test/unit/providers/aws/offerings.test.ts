import { describe, expect, it } from 'vitest'
import { avoidedNote } from '../../../../src/providers/aws/fallback'
import {
  activeUnavailable,
  launchZones,
  type OfferingInputs,
  orderOfferings,
  uidHash,
  zoneInstanceTypes,
} from '../../../../src/providers/aws/offerings'

const now = new Date('2026-12-04T12:00:00.000Z')
const later = '2026-12-04T12:03:00.000Z'
const earlier = '2026-12-04T11:59:00.000Z'
const subnets = [
  { subnetId: 'subnet-c', zone: 'eu-west-1c' },
  { subnetId: 'subnet-a', zone: 'eu-west-1a' },
  { subnetId: 'subnet-b', zone: 'eu-west-1b' },
]
/** A UID whose hash starts it in the first zone (eu-west-1a). */
const uid = Array.from({ length: 100 }, (_, i) => `uid-${i}`).find((u) => uidHash(u) % 3 === 0)
const base: OfferingInputs = {
  instanceTypes: ['m7i.large'],
  capacityTypes: ['on-demand'],
  subnets,
  unavailable: [],
  now,
  uid: uid ?? '',
}

function keys(inputs: Partial<OfferingInputs>): string[] {
  return orderOfferings({ ...base, ...inputs }).candidates.map(
    (o) => `${o.capacityType} ${o.instanceType} ${o.zone} ${o.subnetId}`,
  )
}

describe('orderOfferings', () => {
  it.each<[string, Partial<OfferingInputs>, string[]]>([
    [
      'one type: every zone, starting in the Machine`s own',
      {},
      [
        'on-demand m7i.large eu-west-1a subnet-a',
        'on-demand m7i.large eu-west-1b subnet-b',
        'on-demand m7i.large eu-west-1c subnet-c',
      ],
    ],
    [
      'types in preference order, each over the zones',
      { instanceTypes: ['m7i.large', 'm6i.large'] },
      [
        'on-demand m7i.large eu-west-1a subnet-a',
        'on-demand m7i.large eu-west-1b subnet-b',
        'on-demand m7i.large eu-west-1c subnet-c',
        'on-demand m6i.large eu-west-1a subnet-a',
        'on-demand m6i.large eu-west-1b subnet-b',
        'on-demand m6i.large eu-west-1c subnet-c',
      ],
    ],
    [
      'spot before on-demand, every type in spot first',
      {
        instanceTypes: ['m7i.large', 'm6i.large'],
        capacityTypes: ['spot', 'on-demand'],
        subnets: [subnets[1] ?? subnets[0]].flatMap((s) => (s ? [s] : [])),
      },
      [
        'spot m7i.large eu-west-1a subnet-a',
        'spot m6i.large eu-west-1a subnet-a',
        'on-demand m7i.large eu-west-1a subnet-a',
        'on-demand m6i.large eu-west-1a subnet-a',
      ],
    ],
    [
      'a chosen zone: only its subnets',
      { zone: 'eu-west-1b', instanceTypes: ['m7i.large', 'm6i.large'] },
      ['on-demand m7i.large eu-west-1b subnet-b', 'on-demand m6i.large eu-west-1b subnet-b'],
    ],
    ['a chosen zone without a subnet: nothing', { zone: 'eu-west-1d' }, []],
    [
      'a zone EC2 does not offer the type in is skipped',
      { offered: new Map([['m7i.large', new Set(['eu-west-1b', 'eu-west-1c'])]]) },
      ['on-demand m7i.large eu-west-1b subnet-b', 'on-demand m7i.large eu-west-1c subnet-c'],
    ],
    [
      'a type EC2 offers nowhere is skipped',
      {
        instanceTypes: ['a1.medium', 'm7i.large'],
        offered: new Map([['m7i.large', new Set(['eu-west-1a'])]]),
      },
      ['on-demand m7i.large eu-west-1a subnet-a'],
    ],
    [
      'an offering remembered unavailable is skipped until it expires',
      {
        unavailable: [
          {
            instanceType: 'm7i.large',
            zone: 'eu-west-1a',
            capacityType: 'on-demand',
            reason: 'InsufficientInstanceCapacity',
            expiresAt: later,
          },
          {
            instanceType: 'm7i.large',
            zone: 'eu-west-1b',
            capacityType: 'on-demand',
            reason: 'InsufficientInstanceCapacity',
            expiresAt: earlier,
          },
          {
            instanceType: 'm7i.large',
            zone: 'eu-west-1c',
            capacityType: 'spot',
            reason: 'InsufficientInstanceCapacity',
            expiresAt: later,
          },
        ],
      },
      ['on-demand m7i.large eu-west-1b subnet-b', 'on-demand m7i.large eu-west-1c subnet-c'],
    ],
  ])('%s', (_, inputs, expected) => {
    expect(keys(inputs)).toEqual(expected)
  })

  it('says why each offering was skipped', () => {
    const order = orderOfferings({
      ...base,
      offered: new Map([['m7i.large', new Set(['eu-west-1a', 'eu-west-1b'])]]),
      unavailable: [
        {
          instanceType: 'm7i.large',
          zone: 'eu-west-1a',
          capacityType: 'on-demand',
          reason: 'Unsupported',
          expiresAt: later,
        },
      ],
    })
    expect(order.skipped.map((s) => [s.offering.zone, s.reason, s.until, s.cause])).toEqual([
      ['eu-west-1a', 'Unavailable', later, 'Unsupported'],
      ['eu-west-1c', 'NotOffered', undefined, undefined],
    ])
  })

  it('starts Machines in every zone and a Machine always in the same one', () => {
    const firsts = new Set<string | undefined>()
    for (let i = 0; i < 60; i++) {
      const order = orderOfferings({ ...base, uid: `machine-${i}` })
      firsts.add(order.candidates[0]?.zone)
      expect(order).toEqual(
        orderOfferings({ ...base, uid: `machine-${i}`, subnets: subnets.toReversed() }),
      )
    }
    expect(firsts).toEqual(new Set(['eu-west-1a', 'eu-west-1b', 'eu-west-1c']))
  })

  it('picks one subnet per zone, by the Machine, whatever the listing order', () => {
    const two = [...subnets, { subnetId: 'subnet-a2', zone: 'eu-west-1a' }]
    const chosen = new Set<string | undefined>()
    for (let i = 0; i < 40; i++) {
      const order = orderOfferings({ ...base, uid: `m-${i}`, subnets: two, zone: 'eu-west-1a' })
      expect(order.candidates).toHaveLength(1)
      chosen.add(order.candidates[0]?.subnetId)
    }
    expect(chosen).toEqual(new Set(['subnet-a', 'subnet-a2']))
  })
})

describe('offerings EC2 is taking back (an interruption in the class memory)', () => {
  const interrupted = (zone: string, reason = 'SpotInterruption', expiresAt = later) => ({
    instanceType: 'm7i.large',
    zone,
    capacityType: 'spot',
    reason,
    expiresAt,
  })
  const spotFirst: Partial<OfferingInputs> = { capacityTypes: ['spot', 'on-demand'] }
  it.each<[string, Partial<OfferingInputs>, string[]]>([
    [
      'on-demand in the same zone goes before the interrupted spot offering',
      { ...spotFirst, zone: 'eu-west-1a', unavailable: [interrupted('eu-west-1a')] },
      ['on-demand m7i.large eu-west-1a subnet-a', 'spot m7i.large eu-west-1a subnet-a'],
    ],
    [
      'spot only, every zone: the other zones first, the interrupted one last',
      { capacityTypes: ['spot'], unavailable: [interrupted('eu-west-1a')] },
      [
        'spot m7i.large eu-west-1b subnet-b',
        'spot m7i.large eu-west-1c subnet-c',
        'spot m7i.large eu-west-1a subnet-a',
      ],
    ],
    [
      'spot only in the interrupted zone: it is still tried (an interruption is no failed launch)',
      {
        capacityTypes: ['spot'],
        zone: 'eu-west-1a',
        unavailable: [interrupted('eu-west-1a', 'RebalanceRecommended')],
      },
      ['spot m7i.large eu-west-1a subnet-a'],
    ],
    [
      'an expired interruption is forgotten',
      {
        ...spotFirst,
        zone: 'eu-west-1a',
        unavailable: [interrupted('eu-west-1a', 'SpotInterruption', earlier)],
      },
      ['spot m7i.large eu-west-1a subnet-a', 'on-demand m7i.large eu-west-1a subnet-a'],
    ],
  ])('%s', (_, inputs, expected) => {
    expect(keys(inputs)).toEqual(expected)
  })

  it.each<[string, Partial<OfferingInputs>, number, string | undefined]>([
    [
      'launching past it says what was avoided and why',
      { ...spotFirst, zone: 'eu-west-1a', unavailable: [interrupted('eu-west-1a')] },
      0,
      `OfferingAvoided: Avoided m7i.large spot in eu-west-1a (SpotInterruption until ${later}), where EC2 is taking spot capacity back; launched m7i.large on-demand in eu-west-1a`,
    ],
    [
      'launching it as the last resort says so',
      { capacityTypes: ['spot'], zone: 'eu-west-1a', unavailable: [interrupted('eu-west-1a')] },
      0,
      `OfferingLastResort: Launched m7i.large spot in eu-west-1a (SpotInterruption until ${later}): no other offering of the class is available`,
    ],
    [
      'an offering it would have come after anyway is not named',
      {
        capacityTypes: ['on-demand', 'spot'],
        zone: 'eu-west-1a',
        unavailable: [interrupted('eu-west-1a')],
      },
      0,
      undefined,
    ],
    ['no interruption remembered: no Event', { ...spotFirst, zone: 'eu-west-1a' }, 0, undefined],
  ])('%s', (_, inputs, index, expected) => {
    const note = avoidedNote(orderOfferings({ ...base, ...inputs }), index)
    expect(note && `${note.reason}: ${note.message}`).toEqual(expected)
  })
})

describe('activeUnavailable', () => {
  it('drops expired entries and keeps the latest expiry of duplicates', () => {
    const entry = {
      instanceType: 't3.micro',
      zone: 'eu-west-1a',
      capacityType: 'spot',
      reason: 'X',
    }
    const active = activeUnavailable(
      [
        { ...entry, expiresAt: earlier },
        { ...entry, expiresAt: later },
        { ...entry, zone: 'eu-west-1b', expiresAt: earlier },
      ],
      now,
    )
    expect([...active.values()].map((e) => [e.zone, e.expiresAt])).toEqual([['eu-west-1a', later]])
  })
})

describe('launchZones', () => {
  it.each<[string, ReadonlyMap<string, ReadonlySet<string>> | undefined, string[]]>([
    [
      'every subnet zone when offerings are unknown',
      undefined,
      ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'],
    ],
    [
      'the zones where one of the types is offered',
      new Map([
        ['a1.medium', new Set(['eu-west-1b', 'eu-west-1c'])],
        ['m7i.large', new Set(['eu-west-1c', 'eu-west-1d'])],
      ]),
      ['eu-west-1b', 'eu-west-1c'],
    ],
    ['none when no type is offered', new Map(), []],
  ])('%s', (_, offered, expected) => {
    expect(launchZones(subnets, ['a1.medium', 'm7i.large'], offered)).toEqual(expected)
  })
})

describe('zoneInstanceTypes', () => {
  it("names each zone's offered types in the class's order", () => {
    const offered = new Map([
      ['m7i.large', new Set(['eu-west-1a'])],
      ['m6i.large', new Set(['eu-west-1a', 'eu-west-1c'])],
    ])
    expect(
      zoneInstanceTypes(['eu-west-1a', 'eu-west-1c'], ['m7i.large', 'm6i.large'], offered),
    ).toEqual([
      { zone: 'eu-west-1a', instanceTypes: ['m7i.large', 'm6i.large'] },
      { zone: 'eu-west-1c', instanceTypes: ['m6i.large'] },
    ])
  })
})
