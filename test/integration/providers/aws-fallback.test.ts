/**
 * The `aws` provider over several offerings against moto, with capacity misses injected per
 * offering by the fault proxy: a miss moves on to the next offering in the same call, an offering
 * EC2 does not list for a zone is never asked for, a chosen zone is honoured, and a rerun after a
 * launch of a later offering adopts that instance instead of launching an earlier one.
 */
import { DescribeSubnetsCommand } from '@aws-sdk/client-ec2'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ActuatorMachine, OfferingMemory } from '../../../src/providers/actuator'
import { CapacityError } from '../../../src/providers/errors'
import { useFaultyMoto } from './aws-fixture'
import { deleteUntilDone, newMachine } from './conformance'
import { rejection } from './context'

const aws = useFaultyMoto()
/** moto's default subnet of each zone of the region. */
const subnetOf = new Map<string, string>()

beforeAll(async () => {
  const out = await aws().ec2.send(
    new DescribeSubnetsCommand({ Filters: [{ Name: 'default-for-az', Values: ['true'] }] }),
  )
  for (const s of out.Subnets ?? []) subnetOf.set(s.AvailabilityZone ?? '', s.SubnetId ?? '')
})

/**
 * The offerings RunInstances was asked for, as `type zone`, in order (an SDK retry of one request
 * counts once).
 */
function recordLaunches(): string[] {
  const launches: string[] = []
  const zoneOf = (subnet: string | null) =>
    [...subnetOf].find(([, id]) => id === subnet)?.[0] ?? `? ${subnet}`
  aws().proxy.inject({
    action: 'RunInstances',
    code: 'never',
    status: 500,
    when: (params) => {
      const launch = `${params.get('InstanceType')} ${zoneOf(params.get('SubnetId'))}`
      if (launches.at(-1) !== launch) launches.push(launch)
      return false
    },
  })
  return launches
}

/** Fails RunInstances of `type` in `zone` with `code`, every time. */
function noCapacity(type: string, zone: string, code = 'InsufficientInstanceCapacity') {
  aws().proxy.inject({
    action: 'RunInstances',
    code,
    status: 500,
    when: (params) =>
      params.get('InstanceType') === type && params.get('SubnetId') === subnetOf.get(zone),
  })
}

/** An empty class memory that keeps what each launch records. */
function recordingMemory() {
  const recorded: Parameters<OfferingMemory['record']>[0][] = []
  const memory: OfferingMemory = {
    unavailable: [],
    record: async (outcome) => {
      recorded.push(outcome)
    },
  }
  return { memory, recorded }
}

function context(spec: Record<string, unknown>, offerings?: OfferingMemory) {
  const { instanceType: _one, ...base } = aws().baseSpec
  const made = aws().context({ providerSpec: { ...base, ...spec } })
  if (offerings) made.ctx.offerings = offerings
  return made
}

function inZone(zone: string): ActuatorMachine {
  const machine = newMachine('fallback')
  return { ...machine, spec: { failureDomain: zone } }
}

describe('aws provider offering fallback (moto)', () => {
  it('moves past offerings without capacity in one call and records the misses', async () => {
    const launches = recordLaunches()
    // Unsupported (the type is not offered there) is a miss of this offering, not a bad spec.
    noCapacity('t3.micro', 'eu-west-1a', 'Unsupported')
    const { memory, recorded } = recordingMemory()
    const { ctx, recorded: seen } = context({ instanceTypes: ['t3.micro', 't3.small'] }, memory)
    const machine = inZone('eu-west-1a')
    const result = await aws().provider.actuator.create(ctx, machine)
    // The chosen zone is kept: the next type there, not the same type elsewhere.
    expect(launches).toEqual(['t3.micro eu-west-1a', 't3.small eu-west-1a'])
    expect(result.providerStatus).toMatchObject({
      instanceType: 't3.small',
      availabilityZone: 'eu-west-1a',
    })
    expect(recorded).toEqual([
      {
        missed: [
          {
            instanceType: 't3.micro',
            zone: 'eu-west-1a',
            capacityType: 'on-demand',
            reason: 'Unsupported',
          },
        ],
        launched: { instanceType: 't3.small', zone: 'eu-west-1a', capacityType: 'on-demand' },
      },
    ])
    expect(seen.events.map((e) => e.reason)).toContain('OfferingFallback')
    expect(await aws().tagged(machine.metadata.uid)).toHaveLength(1)
    await deleteUntilDone({ actuator: aws().provider.actuator, context: () => ctx }, machine)
  })

  it('never asks a zone for a type EC2 does not offer there, and skips remembered misses', async () => {
    const launches = recordLaunches()
    // moto's eu-west-1 offers a1.medium in eu-west-1b and eu-west-1c only.
    const memory: OfferingMemory = {
      unavailable: [
        {
          instanceType: 't3.micro',
          zone: 'eu-west-1a',
          capacityType: 'on-demand',
          reason: 'InsufficientInstanceCapacity',
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
        },
      ],
      record: async () => {},
    }
    const { ctx } = context({ instanceTypes: ['a1.medium', 't3.micro', 't3.small'] }, memory)
    const machine = inZone('eu-west-1a')
    const result = await aws().provider.actuator.create(ctx, machine)
    expect(launches).toEqual(['t3.small eu-west-1a'])
    expect(result.providerStatus).toMatchObject({ instanceType: 't3.small' })
    await deleteUntilDone({ actuator: aws().provider.actuator, context: () => ctx }, machine)
  })

  it('without a chosen zone, tries the same type in the other zones first', async () => {
    const launches = recordLaunches()
    for (const zone of ['eu-west-1a', 'eu-west-1b', 'eu-west-1c']) noCapacity('t3.micro', zone)
    const { ctx } = context({ instanceTypes: ['t3.micro', 't3.small'] })
    const machine = newMachine('fallback')
    const result = await aws().provider.actuator.create(ctx, machine)
    expect(launches.slice(0, 3).map((l) => l.split(' ')[0])).toEqual([
      't3.micro',
      't3.micro',
      't3.micro',
    ])
    expect(new Set(launches.slice(0, 3)).size).toBe(3)
    expect(launches[3]?.split(' ')[0]).toBe('t3.small')
    expect(result.providerStatus).toMatchObject({ instanceType: 't3.small' })
    await deleteUntilDone({ actuator: aws().provider.actuator, context: () => ctx }, machine)
  })

  it.each([
    ['without a memory: at EC2 pace, as it would ask the same offerings again', false, 120_000],
    ['with the class memory: soon, for the offerings not yet asked', true, 5_000],
  ])('stops after 4 launches in one call; retries %s', async (_, withMemory, retryAfterMs) => {
    const launches = recordLaunches()
    for (const type of ['t3.micro', 't3.small'])
      for (const zone of ['eu-west-1a', 'eu-west-1b', 'eu-west-1c']) noCapacity(type, zone)
    const { memory, recorded } = recordingMemory()
    const { ctx } = context(
      { instanceTypes: ['t3.micro', 't3.small'] },
      withMemory ? memory : undefined,
    )
    const error = await rejection(aws().provider.actuator.create(ctx, newMachine('bounded')))
    expect(error).toBeInstanceOf(CapacityError)
    expect(error.message).toContain('2 more offering(s) to try')
    expect((error as CapacityError).retryAfterMs).toBe(retryAfterMs)
    expect(launches).toHaveLength(4)
    if (withMemory) expect(recorded[0]?.missed).toHaveLength(4)
  })

  it('prefers spot and falls back to on-demand when spot has no capacity', async () => {
    // Spot has no capacity anywhere (a spot request carries InstanceMarketOptions.MarketType).
    aws().proxy.inject({
      action: 'RunInstances',
      code: 'InsufficientInstanceCapacity',
      status: 500,
      when: (params) => params.get('InstanceMarketOptions.MarketType') === 'spot',
    })
    const { memory, recorded } = recordingMemory()
    const { ctx } = context(
      { instanceTypes: ['t3.micro'], capacityTypes: ['spot', 'on-demand'], spot: {} },
      memory,
    )
    const machine = inZone('eu-west-1b')
    const result = await aws().provider.actuator.create(ctx, machine)
    expect(result.providerStatus).toMatchObject({ spot: false, availabilityZone: 'eu-west-1b' })
    expect(recorded[0]?.missed.map((m) => m.capacityType)).toEqual(['spot'])
    expect(recorded[0]?.launched?.capacityType).toBe('on-demand')
    await deleteUntilDone({ actuator: aws().provider.actuator, context: () => ctx }, machine)
  })

  it('launches nothing while every offering is remembered, and waits for the first expiry', async () => {
    const launches = recordLaunches()
    const expiresAt = new Date(Date.now() + 60_000).toISOString()
    const memory: OfferingMemory = {
      unavailable: ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'].map((zone) => ({
        instanceType: 't3.micro',
        zone,
        capacityType: 'on-demand',
        reason: 'InsufficientInstanceCapacity',
        expiresAt,
      })),
      record: async () => {},
    }
    const { ctx } = context({ instanceTypes: ['t3.micro'] }, memory)
    const error = await rejection(aws().provider.actuator.create(ctx, newMachine('remembered')))
    expect(error).toBeInstanceOf(CapacityError)
    // The condition keeps EC2's reason, as the launch that found it said.
    expect(error.reason).toBe('InsufficientInstanceCapacity')
    expect((error as CapacityError).retryAfterMs).toBeGreaterThan(50_000)
    expect((error as CapacityError).retryAfterMs).toBeLessThanOrEqual(60_000)
    expect(launches).toEqual([])
  })

  it('a rerun after a later offering launched adopts it, even with the earlier one back', async () => {
    noCapacity('t3.micro', 'eu-west-1a')
    const { ctx } = context({ instanceTypes: ['t3.micro', 't3.small'] })
    const machine = inZone('eu-west-1a')
    // The first run launches t3.small; the reconcile then dies before recording it.
    await aws().provider.actuator.create(ctx, machine)
    // Capacity for t3.micro is back and the memory of the miss is gone: the rerun must not
    // launch t3.micro beside the t3.small.
    aws().proxy.clearFaults()
    const launches = recordLaunches()
    const rerun = await aws().provider.actuator.create(ctx, machine)
    expect(launches).toEqual([])
    expect(rerun.providerStatus).toMatchObject({ instanceType: 't3.small' })
    expect(await aws().tagged(machine.metadata.uid)).toHaveLength(1)
    await deleteUntilDone({ actuator: aws().provider.actuator, context: () => ctx }, machine)
  })
})
