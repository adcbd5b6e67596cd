/**
 * @module The EC2 side of an adoption: the instances it takes over, read in batches of 200 (an
 * `instance-id` filter, which leaves unknown ids out instead of failing the call), found by tags
 * for unmanaged fleets, and the facts about each that the translation and the checks use.
 */
import type { EC2Client, Filter, Instance } from '@aws-sdk/client-ec2'
import { valuesPerFilter } from '../providers/aws/instance-reads'
import { describeInstances } from '../providers/aws/lookup'

/** What adoption needs to know about one instance. */
export interface InstanceFacts {
  id: string
  state: string
  zone: string
  region: string
  subnetId?: string | undefined
  securityGroupIds: string[]
  imageId?: string | undefined
  instanceType?: string | undefined
  iamInstanceProfileArn?: string | undefined
  keyName?: string | undefined
  spot: boolean
  privateDnsName?: string | undefined
  tags: Record<string, string>
}

/** The facts of a described instance. */
export function factsOf(instance: Instance): InstanceFacts {
  const zone = instance.Placement?.AvailabilityZone ?? ''
  return {
    id: instance.InstanceId ?? '',
    state: instance.State?.Name ?? 'unknown',
    zone,
    region: zone.replace(/[a-z]$/, ''),
    subnetId: instance.SubnetId,
    securityGroupIds: (instance.SecurityGroups ?? []).flatMap((g) =>
      g.GroupId ? [g.GroupId] : [],
    ),
    imageId: instance.ImageId,
    instanceType: instance.InstanceType,
    iamInstanceProfileArn: instance.IamInstanceProfile?.Arn,
    keyName: instance.KeyName,
    spot: instance.InstanceLifecycle === 'spot',
    privateDnsName: instance.PrivateDnsName,
    tags: Object.fromEntries(
      (instance.Tags ?? []).flatMap((t) => (t.Key ? [[t.Key, t.Value ?? '']] : [])),
    ),
  }
}

/** The instances with `ids` that EC2 knows, by id (one DescribeInstances per 200 ids). */
export async function describeByIds(
  ec2: EC2Client,
  ids: readonly string[],
  signal: AbortSignal,
): Promise<Map<string, InstanceFacts>> {
  const unique = [...new Set(ids)]
  const found = new Map<string, InstanceFacts>()
  for (let i = 0; i < unique.length; i += valuesPerFilter) {
    const filter: Filter = { Name: 'instance-id', Values: unique.slice(i, i + valuesPerFilter) }
    for (const instance of await describeInstances(ec2, { Filters: [filter] }, signal)) {
      const facts = factsOf(instance)
      found.set(facts.id, facts)
    }
  }
  return found
}

/** Live instances carrying every one of `tags`. */
export async function describeByTags(
  ec2: EC2Client,
  tags: Record<string, string>,
  signal: AbortSignal,
): Promise<InstanceFacts[]> {
  const filters: Filter[] = [
    ...Object.entries(tags).map(([key, value]) => ({ Name: `tag:${key}`, Values: [value] })),
    { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] },
  ]
  return (await describeInstances(ec2, { Filters: filters }, signal)).map(factsOf)
}

/** `aws:///<zone>/<id>`: the providerID the kubelet's AWS cloud provider gives the Node. */
export function providerIdOf(facts: InstanceFacts): string {
  return `aws:///${facts.zone}/${facts.id}`
}
