/**
 * @module Turns the spec's lookups (AMI, subnet and security groups by filters) into ids, with
 * errors that name the field. The pickers are pure so the choice rules are unit-tested.
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
import type { ResolvedLaunch } from './run-instances-input'
import type { AwsProviderSpec } from './spec'

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

/**
 * One of the matching subnets, chosen by the Machine UID: stable for a Machine (so a retried
 * launch sends the same parameters) and spread across subnets (and so zones) over many Machines.
 */
export function pickSubnet(subnets: readonly Subnet[], uid: string): Subnet | undefined {
  const sorted = subnets.toSorted((a, b) => (a.SubnetId ?? '').localeCompare(b.SubnetId ?? ''))
  if (sorted.length === 0) return undefined
  let hash = 0
  for (const char of uid) hash = (hash * 31 + char.charCodeAt(0)) >>> 0
  return sorted[hash % sorted.length]
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

async function resolveImage(client: EC2Client, spec: AwsProviderSpec, signal: AbortSignal) {
  const { id, filters, owners } = spec.ami
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

async function resolveSubnet(
  client: EC2Client,
  spec: AwsProviderSpec,
  ctx: { uid: string; signal: AbortSignal },
) {
  if (spec.subnet.id) return spec.subnet.id
  const filters = toEc2Filters(spec.subnet.filters ?? [])
  const zone = spec.placement?.availabilityZone
  if (zone) filters.push({ Name: 'availability-zone', Values: [zone] })
  const out = await send('DescribeSubnets', 'subnet.filters', () =>
    client.send(new DescribeSubnetsCommand({ Filters: filters }), { abortSignal: ctx.signal }),
  )
  const subnet = pickSubnet(out.Subnets ?? [], ctx.uid)
  if (!subnet?.SubnetId) {
    const where = zone ? ` in ${zone}` : ''
    throw invalid('subnet.filters', 'InvalidSubnet', `no subnet matches subnet.filters${where}`)
  }
  return subnet.SubnetId
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

/** Resolves every lookup of `spec` for the Machine with `uid` (1 to 3 Describe calls). */
export async function resolveLaunch(
  client: EC2Client,
  spec: AwsProviderSpec,
  ctx: { uid: string; signal: AbortSignal },
): Promise<ResolvedLaunch> {
  const image = await resolveImage(client, spec, ctx.signal)
  return {
    imageId: image.ImageId ?? '',
    rootDeviceName: image.RootDeviceName,
    subnetId: await resolveSubnet(client, spec, ctx),
    securityGroupIds: await resolveSecurityGroups(client, spec, ctx.signal),
  }
}
