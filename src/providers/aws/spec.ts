/**
 * @module The `aws` provider spec (zod): what a MachineClass's `providerSpec` (or a Machine's inline
 * `providerSpec.value`) may say about an EC2 instance. Admission validates with this schema;
 * descriptions become `kubectl explain` text.
 */
import { z } from 'zod'
import { lazySchema } from '../../api/shared/lazy-schema'
import { reservedTagPrefix } from './tags'

/** An EC2 Describe* filter (`Name` / `Values`). */
export const awsFilterSchema = lazySchema(() =>
  z.strictObject({
    name: z.string().min(1).describe('EC2 filter name, e.g. tag:Name or name.'),
    values: z.array(z.string()).min(1).describe('Values; any match passes the filter.'),
  }),
)

const filtersSchema = lazySchema(() => z.array(awsFilterSchema()).min(1))

function exactlyOne(v: { id?: unknown; filters?: unknown }): boolean {
  return (v.id === undefined) !== (v.filters === undefined)
}

function idSchema(pattern: RegExp) {
  return z.string().regex(pattern, `must look like ${pattern.source}`).optional()
}

/** Exactly one of `id` or `filters`. */
function idOrFilters(what: string, pattern: RegExp) {
  return z
    .strictObject({ id: idSchema(pattern), filters: filtersSchema().optional() })
    .refine(exactlyOne, { message: `set exactly one of ${what}.id or ${what}.filters` })
}

/** Filters are bound to owners, or public images are accepted on purpose. */
export function ownersNamed(ami: {
  owners?: unknown[] | undefined
  allowPublicImages?: boolean | undefined
}): boolean {
  return (ami.owners?.length ?? 0) > 0 || ami.allowPublicImages === true
}

const amiSchema = lazySchema(() =>
  z
    .strictObject({
      id: idSchema(/^ami-[0-9a-f]+$/),
      filters: filtersSchema().optional(),
      owners: z
        .array(z.string().min(1))
        .min(1)
        .optional()
        .describe(
          'Who may own the image (with filters): account ids, self, amazon or aws-marketplace. ' +
            'Required with filters unless allowPublicImages: anyone can publish an image that ' +
            'matches a name filter.',
        ),
      allowPublicImages: z
        .boolean()
        .optional()
        .describe(
          'true: filters without owners may match any public image, including ones published ' +
            'by strangers to be picked up (the "whoAMI" pattern). Leave unset and name owners.',
        ),
      follow: z
        .enum(['Newest'])
        .optional()
        .describe(
          'Newest: the MachineClass controller resolves the newest image matching the filters ' +
            '(on each reconcile and sweep) and publishes it in the class status.image; launches ' +
            'use it, and a newer image rolls the deployments using the class (reason ' +
            'ImageChanged). Unset: each launch resolves the filters and nothing rolls. Filters only.',
        ),
    })
    .refine(exactlyOne, { message: 'set exactly one of ami.id or ami.filters' })
    .refine((v) => v.filters === undefined || ownersNamed(v), {
      message:
        'ami.filters needs ami.owners (e.g. ["amazon"], ["self"] or an account id): without it the newest public image any account publishes under a matching name is launched; set allowPublicImages: true to accept that',
      path: ['owners'],
    })
    .refine((v) => v.follow === undefined || v.id === undefined, {
      message: 'follow needs ami.filters: a fixed ami.id has no newer image to follow',
      path: ['follow'],
    }),
)

const volumeTypes = ['gp2', 'gp3', 'io1', 'io2', 'st1', 'sc1', 'standard'] as const

/** An EBS volume: the root one (no device name) or an extra one. */
export const awsVolumeSchema = lazySchema(() =>
  z
    .strictObject({
      sizeGiB: z.number().int().min(1).max(65_536).describe('Volume size in GiB.'),
      type: z.enum(volumeTypes).default('gp3').describe('EBS volume type.'),
      iops: z.number().int().min(100).optional().describe('Provisioned IOPS (gp3, io1, io2 only).'),
      throughputMiBps: z.number().int().min(125).max(2000).optional().describe('gp3 only.'),
      encrypted: z.boolean().default(true).describe('Encrypt the volume (default true).'),
      kmsKeyId: z.string().min(1).optional().describe('KMS key id or ARN; default: account key.'),
    })
    .refine((v) => v.iops === undefined || ['gp3', 'io1', 'io2'].includes(v.type), {
      message: 'iops is only valid for gp3, io1 and io2 volumes',
      path: ['iops'],
    })
    .refine((v) => v.throughputMiBps === undefined || v.type === 'gp3', {
      message: 'throughputMiBps is only valid for gp3 volumes',
      path: ['throughputMiBps'],
    })
    .refine((v) => v.kmsKeyId === undefined || v.encrypted, {
      message: 'kmsKeyId requires encrypted: true',
      path: ['kmsKeyId'],
    }),
)

/** The most instance types one spec may list (Karpenter's CreateFleet sends up to 60). */
export const maxInstanceTypes = 20
/** The most subnet entries one spec may list. */
export const maxSubnetEntries = 16

/** EC2 capacity types a spec may prefer. */
export const capacityTypes = ['spot', 'on-demand'] as const
/** An EC2 capacity type. */
export type CapacityType = (typeof capacityTypes)[number]

const instanceTypeSchema = lazySchema(() =>
  z.string().regex(/^[a-z0-9-]+\.[a-z0-9]+$/, 'must be an instance type such as m7i.large'),
)

function unique(values: readonly string[]): boolean {
  return new Set(values).size === values.length
}

const tagKey = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(128)
    .refine((k) => !k.startsWith('aws:') && !k.startsWith(reservedTagPrefix), {
      message: `tag keys starting with aws: or ${reservedTagPrefix} are reserved`,
    }),
)

/** The `aws` provider spec. */
export const awsProviderSpecSchema = lazySchema(() =>
  z
    .strictObject({
      region: z
        .string()
        .regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'must be an AWS region such as eu-west-1')
        .optional()
        .describe("AWS region; default: the SDK's (AWS_REGION, profile, IMDS)."),
      credentialsSecret: z
        .strictObject({ name: z.string().min(1) })
        .optional()
        .describe(
          'Secret (Machine namespace) with aws_access_key_id, aws_secret_access_key and optional ' +
            "aws_session_token; default: the MachineClass's credentialsSecretRef, else the SDK chain.",
        ),
      ami: amiSchema().describe(
        'The AMI by id, or by filters (the newest match by creation date wins).',
      ),
      instanceType: instanceTypeSchema()
        .optional()
        .describe('The instance type: the one-element form of instanceTypes.'),
      instanceTypes: z
        .array(instanceTypeSchema())
        .min(1)
        .max(maxInstanceTypes)
        .refine(unique, { message: 'instance types must be unique' })
        .optional()
        .describe(
          'Instance types in order of preference: a type EC2 has no capacity for (in a zone, ' +
            'for a capacity type) is passed over for the next. Set this or instanceType.',
        ),
      subnet: idOrFilters('subnet', /^subnet-[0-9a-f]+$/)
        .optional()
        .describe('One subnet entry: the one-element form of subnets.'),
      subnets: z
        .array(idOrFilters('subnets[]', /^subnet-[0-9a-f]+$/))
        .min(1)
        .max(maxSubnetEntries)
        .optional()
        .describe(
          'Subnets by id or filters, typically one per zone; every matching subnet is a ' +
            'candidate. A Machine whose spec.failureDomain names a zone (a MachineSet balancing ' +
            'its zones) launches only in that zone, falling back over the instance and capacity ' +
            'types there; any other starts in a zone picked by its UID and tries each zone that ' +
            'offers a type before the next type. Set this or subnet.',
        ),
      capacityTypes: z
        .array(z.enum(capacityTypes))
        .min(1)
        .refine(unique, { message: 'capacity types must be unique' })
        .optional()
        .describe(
          'Capacity types in order of preference, e.g. [spot, on-demand]: spot offerings are ' +
            'tried first and on-demand ones when none has capacity. Default: [spot] when spot is ' +
            'set, else [on-demand].',
        ),
      securityGroups: z
        .array(idOrFilters('securityGroups[]', /^sg-[0-9a-f]+$/))
        .default([])
        .describe('Security groups by id or filters; empty means the VPC default group.'),
      iamInstanceProfile: z
        .strictObject({ name: z.string().min(1).optional(), arn: z.string().min(1).optional() })
        .refine((v) => (v.name === undefined) !== (v.arn === undefined), {
          message: 'set exactly one of iamInstanceProfile.name or iamInstanceProfile.arn',
        })
        .optional(),
      keyName: z.string().min(1).optional().describe('EC2 key pair name.'),
      userDataSecret: z
        .strictObject({ name: z.string().min(1), key: z.string().min(1).default('userData') })
        .optional()
        .describe(
          "Secret holding the bootstrap user data, passed through as-is (default: the MachineClass's " +
            'userDataSecretRef). Never logged.',
        ),
      tags: z
        .record(tagKey(), z.string().max(256))
        .default({})
        .describe('Extra tags for all resources.'),
      placement: z
        .strictObject({
          availabilityZone: z.string().min(1).optional(),
          tenancy: z.enum(['default', 'dedicated', 'host']).optional(),
          groupName: z.string().min(1).optional().describe('An existing placement group.'),
          partitionNumber: z.number().int().min(1).max(7).optional(),
        })
        .optional(),
      rootVolume: awsVolumeSchema().optional().describe("Root volume; default: the AMI's."),
      blockDevices: z
        .array(
          z.strictObject({
            deviceName: z.string().regex(/^\/dev\/(sd[b-z]|xvd[b-z][a-z]?|nvme\d+n\d+)$/),
            volume: awsVolumeSchema(),
          }),
        )
        .default([])
        .describe('Extra EBS volumes, deleted with the instance.'),
      spot: z
        .strictObject({
          maxPrice: z
            .string()
            .regex(/^\d+(\.\d+)?$/)
            .optional()
            .describe('USD per hour; default: the on-demand price.'),
        })
        .optional()
        .describe(
          'Spot options. Alone it means capacityTypes [spot]: a one-time spot instance, ' +
            'terminated on interruption.',
        ),
      metadataOptions: z
        .strictObject({
          httpTokens: z.enum(['required', 'optional']).default('required').describe('IMDSv2.'),
          httpPutResponseHopLimit: z.number().int().min(1).max(64).default(2),
          httpEndpoint: z.enum(['enabled', 'disabled']).default('enabled'),
          instanceMetadataTags: z.enum(['enabled', 'disabled']).default('disabled'),
        })
        .prefault({})
        .describe('Instance metadata service options; IMDSv2 (httpTokens: required) by default.'),
      publicIP: z.boolean().optional().describe("Associate a public IPv4; default: the subnet's."),
      capacityReservation: z
        .strictObject({
          preference: z.enum(['open', 'none']).optional(),
          id: z
            .string()
            .regex(/^cr-[0-9a-f]+$/)
            .optional(),
        })
        .refine((v) => (v.preference === undefined) !== (v.id === undefined), {
          message: 'set exactly one of capacityReservation.preference or capacityReservation.id',
        })
        .optional(),
    })
    .refine((v) => (v.instanceType === undefined) !== (v.instanceTypes === undefined), {
      message: 'set exactly one of instanceType or instanceTypes',
      path: ['instanceTypes'],
    })
    .refine((v) => (v.subnet === undefined) !== (v.subnets === undefined), {
      message: 'set exactly one of subnet or subnets',
      path: ['subnets'],
    })
    .refine((v) => !v.spot || !v.capacityTypes || v.capacityTypes.includes('spot'), {
      message: 'spot options need spot in capacityTypes',
      path: ['spot'],
    })
    .superRefine((v, ctx) => {
      if (!(capacityTypesOf(v).includes('spot') && v.capacityReservation?.id)) return
      ctx.addIssue({
        code: 'custom',
        message: 'spot instances cannot target a capacity reservation',
        path: [v.spot ? 'spot' : 'capacityTypes'],
      })
    })
    .refine(
      (v) => new Set(v.blockDevices.map((d) => d.deviceName)).size === v.blockDevices.length,
      {
        message: 'device names must be unique',
        path: ['blockDevices'],
      },
    ),
)

/** A parsed, defaulted `aws` provider spec. */
export type AwsProviderSpec = z.output<ReturnType<typeof awsProviderSpecSchema>>
/** An `aws` provider spec as written by users (before defaults). */
export type AwsProviderSpecInput = z.input<ReturnType<typeof awsProviderSpecSchema>>

/** The spec's instance types in order of preference (instanceType is the one-element form). */
export function instanceTypesOf(spec: {
  instanceType?: string | undefined
  instanceTypes?: readonly string[] | undefined
}): string[] {
  return spec.instanceTypes ? [...spec.instanceTypes] : spec.instanceType ? [spec.instanceType] : []
}

/** The spec's subnet entries (subnet is the one-element form). */
export function subnetEntriesOf(spec: AwsProviderSpec): AwsSubnetEntry[] {
  return spec.subnets ? [...spec.subnets] : spec.subnet ? [spec.subnet] : []
}

/** The spec's capacity types in order of preference: [spot] for spot alone, else [on-demand]. */
export function capacityTypesOf(spec: {
  capacityTypes?: readonly CapacityType[] | undefined
  spot?: unknown
}): CapacityType[] {
  if (spec.capacityTypes) return [...spec.capacityTypes]
  return spec.spot ? ['spot'] : ['on-demand']
}

/** One subnet entry: an id or filters. */
export type AwsSubnetEntry = NonNullable<AwsProviderSpec['subnet']>
