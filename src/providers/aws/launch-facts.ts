/**
 * @module What every launch of a class needs to know besides the Machine: the spec's image,
 * subnets and security groups as ids, and the zones offering its instance types. Kept per client
 * for a short while (client-pool.ts), so a scale-up of many Machines asks EC2 once instead of
 * three or four times per Machine.
 */
import { createHash } from 'node:crypto'
import type { EC2Client } from '@aws-sdk/client-ec2'
import { describeOfferedZones } from './offered-zones'
import type { SubnetChoice } from './offerings'
import { resolveLaunch } from './resolve'
import type { ResolvedLaunch } from './run-instances-input'
import { type AwsProviderSpec, instanceTypesOf } from './spec'

/** The lookups of one spec. */
export interface LaunchFacts {
  resolved: ResolvedLaunch & { subnets: SubnetChoice[] }
  /** Zones by instance type, or undefined when the credentials may not ask. */
  offered: Map<string, Set<string>> | undefined
}

/**
 * How long facts are kept: a subnet or security group replaced by its filters, or an image
 * published under the same filters, shows in launches within this time. A class that follows its
 * newest image names the published one in the key, so a new image applies at once.
 */
export const launchFactsTtlMs = 30_000

/** The key of a spec's facts: every spec field can matter to a lookup, so all of them. */
export function launchFactsKey(spec: AwsProviderSpec, publishedImage: string | undefined): string {
  return createHash('sha256')
    .update(JSON.stringify(spec))
    .update(`\0${publishedImage ?? ''}`)
    .digest('hex')
}

/** Reads the facts of `spec` from EC2. */
export async function readLaunchFacts(
  client: EC2Client,
  spec: AwsProviderSpec,
  signal: AbortSignal,
  publishedImage: string | undefined,
): Promise<LaunchFacts> {
  const resolved = await resolveLaunch(client, spec, signal, publishedImage)
  const offered = await describeOfferedZones(client, instanceTypesOf(spec), signal)
  return { resolved, offered }
}
