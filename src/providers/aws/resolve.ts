/**
 * @module Turns the spec's lookups (AMI, subnets and security groups by filters) into ids (and
 * subnets into zones), with errors that name the field. The pickers are pure so the choice rules are unit-tested.
 */
import {
  DescribeImagesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  type EC2Client,
  type Filter,
  type Image,
  type Subnet,
} from '@aws-sdk/client-ec2'
import { InvalidConfigurationError } from '../errors'
import { classifyAwsError } from './errors'
import type { SubnetChoice } from './offerings'
import type { ResolvedLaunch } from './run-instances-input'
import { type AwsProviderSpec, ownersNamed, subnetEntriesOf } from './spec'

type SpecFilter = { name: string; values: string[] }

/** Spec filters in EC2's shape. */
export function toEc2Filters(filters: readonly SpecFilter[]): Filter[] {
  return filters.map((f) => ({ Name: f.name, Values: [...f.values] }))
}

/** The newest available image (by CreationDate, ties by id), or undefined. */
export function pickNewestImage(images: readonly Image[]): Image | undefined {
  return images
    .filter((i) => i.State === undefined || i.State === 'available')
    .toSorted(
      (a, b) =>
        (b.CreationDate ?? '').localeCompare(a.CreationDate ?? '') ||
        (a.ImageId ?? '').localeCompare(b.ImageId ?? ''),
    )[0]
}

async function send<T>(operation: string, field: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw classifyAwsError(error, operation, field)
  }
}

function invalid(field: string, reason: string, message: string): InvalidConfigurationError {
  return new InvalidConfigurationError(message, { reason, field })
}

/**
 * The spec's image: its id, or the newest match of its filters; for a class that follows its
 * newest image, the one the class published (`published`), so its Machines launch what status says.
 */
export async function resolveImage(
  client: EC2Client,
  spec: AwsProviderSpec,
  signal: AbortSignal,
  published?: string,
) {
  const { filters, owners } = spec.ami
  const id = spec.ami.follow && published ? published : spec.ami.id
  // A spec stored before owners were required: refuse rather than launch a stranger's image.
  if (!id && !ownersNamed(spec.ami)) {
    throw invalid(
      'ami.owners',
      'InvalidAMI',
      'ami.filters without ami.owners would match public images of any account; name the owners (or set allowPublicImages: true)',
    )
  }
  const input = id ? { ImageIds: [id] } : { Filters: toEc2Filters(filters ?? []), Owners: owners }
  const out = await send('DescribeImages', id ? 'ami.id' : 'ami.filters', () =>
    client.send(new DescribeImagesCommand(input), { abortSignal: signal }),
  )
  const image = pickNewestImage(out.Images ?? [])
  if (!image?.ImageId) {
    const what = id ? `AMI ${id} does not exist or is not available` : 'no available AMI matches'
    throw invalid(id ? 'ami.id' : 'ami.filters', 'InvalidAMI', `${what} (check ami)`)
  }
  return image
}

/** The zone and id of each subnet, when EC2 says both. */
function choices(subnets: readonly Subnet[]): SubnetChoice[] {
  return subnets.flatMap((s) =>
    s.SubnetId && s.AvailabilityZone ? [{ subnetId: s.SubnetId, zone: s.AvailabilityZone }] : [],
  )
}

/**
 * Every subnet the spec's subnet entries match, with its zone: one DescribeSubnets for the ids,
 * one per filter entry (limited to placement.availabilityZone when set). An entry that matches
 * nothing is a configuration error naming it.
 */
export async function resolveSubnets(
  client: EC2Client,
  spec: AwsProviderSpec,
  signal: AbortSignal,
): Promise<SubnetChoice[]> {
  const field = spec.subnets ? 'subnets' : 'subnet'
  const entries = subnetEntriesOf(spec)
  const at = (index: number) => (spec.subnets ? `subnets[${index}]` : 'subnet')
  const found = new Map<string, SubnetChoice>()
  const ids = entries.flatMap((e) => (e.id ? [e.id] : []))
  if (ids.length > 0) {
    const out = await send('DescribeSubnets', field, () =>
      client.send(new DescribeSubnetsCommand({ SubnetIds: ids }), { abortSignal: signal }),
    )
    const known = choices(out.Subnets ?? [])
    for (const [index, entry] of entries.entries()) {
      const subnet = known.find((k) => k.subnetId === entry.id)
      if (entry.id && !subnet) {
        throw invalid(`${at(index)}.id`, 'InvalidSubnet', `subnet ${entry.id} does not exist`)
      }
      if (subnet) found.set(subnet.subnetId, subnet)
    }
  }
  const zone = spec.placement?.availabilityZone
  for (const [index, entry] of entries.entries()) {
    if (!entry.filters) continue
    const filters = toEc2Filters(entry.filters)
    if (zone) filters.push({ Name: 'availability-zone', Values: [zone] })
    const where = `${at(index)}.filters`
    const out = await send('DescribeSubnets', where, () =>
      client.send(new DescribeSubnetsCommand({ Filters: filters }), { abortSignal: signal }),
    )
    const matched = choices(out.Subnets ?? [])
    if (matched.length === 0) {
      throw invalid(
        where,
        'InvalidSubnet',
        `no subnet matches ${where}${zone ? ` in ${zone}` : ''}`,
      )
    }
    for (const subnet of matched) found.set(subnet.subnetId, subnet)
  }
  const all = [...found.values()]
  return zone ? all.filter((s) => s.zone === zone) : all
}

async function resolveSecurityGroups(
  client: EC2Client,
  spec: AwsProviderSpec,
  signal: AbortSignal,
) {
  const ids = new Set<string>()
  for (const [index, group] of spec.securityGroups.entries()) {
    if (group.id) {
      ids.add(group.id)
      continue
    }
    const out = await send('DescribeSecurityGroups', `securityGroups[${index}].filters`, () =>
      client.send(
        new DescribeSecurityGroupsCommand({ Filters: toEc2Filters(group.filters ?? []) }),
        {
          abortSignal: signal,
        },
      ),
    )
    const found = (out.SecurityGroups ?? []).flatMap((g) => (g.GroupId ? [g.GroupId] : []))
    if (found.length === 0) {
      const field = `securityGroups[${index}].filters`
      throw invalid(field, 'InvalidSecurityGroup', `no security group matches ${field}`)
    }
    for (const id of found.sort()) ids.add(id)
  }
  return [...ids]
}

/** Resolves every lookup of `spec` (1 to 3 Describe calls, plus one per subnet filter entry). */
export async function resolveLaunch(
  client: EC2Client,
  spec: AwsProviderSpec,
  signal: AbortSignal,
  publishedImage?: string,
): Promise<ResolvedLaunch & { subnets: SubnetChoice[] }> {
  const image = await resolveImage(client, spec, signal, publishedImage)
  return {
    imageId: image.ImageId ?? '',
    rootDeviceName: image.RootDeviceName,
    subnets: await resolveSubnets(client, spec, signal),
    securityGroupIds: await resolveSecurityGroups(client, spec, signal),
  }
}
