/**
 * @module Offerings without capacity, per offering, through the fault proxy: a MachineClass `flex`
 * of three instance types over moto's three default subnets (nine offerings, one per type and
 * zone, on-demand), and a switch that takes any set of those offerings out (RunInstances answers
 * InsufficientInstanceCapacity there, as EC2 does, HTTP 500) and back. Used by the capacity chaos
 * scenario (flapping) and the capacity benchmark (two thirds out for good).
 */
import { DescribeSubnetsCommand, type EC2Client } from '@aws-sdk/client-ec2'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { FaultProxy } from '../../harness/moto/fault-proxy'
import { copyClass } from './cloud-fleet'

/** The flex class's instance types, in order of preference. */
export const flexTypes = ['t3.micro', 't3.small', 't3.medium']
/** EC2's answer for an offering without capacity. */
export const missCode = 'InsufficientInstanceCapacity'

/** The switch over the flex class's offerings (`type zone`, e.g. `t3.micro eu-west-1a`). */
export interface OfferingFaults {
  /** Every offering of the class, types outer, zones inner. */
  offerings: string[]
  zones: string[]
  /** Takes exactly `out` out of capacity (every other offering has capacity). */
  set(out: Iterable<string>): void
  /** The offerings out of capacity now. */
  out(): ReadonlySet<string>
  /** RunInstances requests answered with a miss so far. */
  misses(): number
}

/**
 * Creates MachineClass `name` in `namespace`: the world's `standard` class with the flex types and
 * an `unavailableOfferingTTL` of `ttl`.
 */
export async function createFlexClass(
  kube: KubeClient,
  ref: { namespace: string; name: string },
  ttl: string,
): Promise<void> {
  await copyClass(kube, ref, flexTypes, { unavailableOfferingTTL: ttl })
}

/** Installs the switch on `proxy` (all offerings in capacity until `set`). */
export async function startOfferingFaults(
  proxy: FaultProxy,
  ec2: EC2Client,
): Promise<OfferingFaults> {
  const subnets = await ec2.send(
    new DescribeSubnetsCommand({ Filters: [{ Name: 'default-for-az', Values: ['true'] }] }),
  )
  const zoneOf = new Map<string, string>()
  for (const s of subnets.Subnets ?? []) zoneOf.set(s.SubnetId ?? '', s.AvailabilityZone ?? '')
  const zones = [...new Set(zoneOf.values())].sort()
  let out = new Set<string>()
  let misses = 0
  proxy.inject({
    action: 'RunInstances',
    code: missCode,
    status: 500,
    when: (params) => {
      const key = `${params.get('InstanceType')} ${zoneOf.get(params.get('SubnetId') ?? '')}`
      const missed = out.has(key)
      if (missed) misses++
      return missed
    },
  })
  return {
    offerings: flexTypes.flatMap((t) => zones.map((z) => `${t} ${z}`)),
    zones,
    set(next) {
      out = new Set(next)
    },
    out: () => out,
    misses: () => misses,
  }
}
