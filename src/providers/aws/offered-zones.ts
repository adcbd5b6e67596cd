/**
 * @module Which zones offer each instance type (EC2 DescribeInstanceTypeOfferings), so a launch
 * never asks a zone for a type it does not have.
 */
import { DescribeInstanceTypeOfferingsCommand, type EC2Client } from '@aws-sdk/client-ec2'
import { classifyAwsError } from './errors'

/**
 * The zones of the client's region offering each of `instanceTypes` (all pages), or undefined
 * when the credentials may not ask (ec2:DescribeInstanceTypeOfferings not granted): the launch
 * then tries every zone and reads `Unsupported` as a miss, as it did before the lookup existed.
 */
export async function describeOfferedZones(
  client: EC2Client,
  instanceTypes: readonly string[],
  signal: AbortSignal,
): Promise<Map<string, Set<string>> | undefined> {
  const offered = new Map<string, Set<string>>()
  let token: string | undefined
  do {
    const out = await client
      .send(
        new DescribeInstanceTypeOfferingsCommand({
          LocationType: 'availability-zone',
          Filters: [{ Name: 'instance-type', Values: [...instanceTypes] }],
          NextToken: token,
        }),
        { abortSignal: signal },
      )
      .catch((error: unknown) => {
        const classified = classifyAwsError(error, 'DescribeInstanceTypeOfferings')
        if (classified.reason === 'Unauthorized') return undefined
        throw classified
      })
    if (!out) return undefined
    for (const o of out.InstanceTypeOfferings ?? []) {
      if (!o.InstanceType || !o.Location) continue
      const zones = offered.get(o.InstanceType) ?? new Set<string>()
      zones.add(o.Location)
      offered.set(o.InstanceType, zones)
    }
    token = out.NextToken
  } while (token)
  return offered
}
