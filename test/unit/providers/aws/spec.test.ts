import { describe, expect, it } from 'vitest'
import { checkSchema } from '../../../../src/api/validation/field-errors'
import {
  type AwsProviderSpecInput,
  awsProviderSpecSchema,
  capacityTypesOf,
  instanceTypesOf,
  subnetEntriesOf,
} from '../../../../src/providers/aws/spec'

const minimal: AwsProviderSpecInput = {
  ami: { id: 'ami-0123456789abcdef0' },
  instanceType: 'm7i.large',
  subnet: { id: 'subnet-0123abcd' },
}

function issuesOf(patch: Record<string, unknown>): string[] {
  return checkSchema(awsProviderSpecSchema(), { ...minimal, ...patch }, '').map((i) => i.path)
}

describe('aws provider spec', () => {
  it('reads instanceType, subnet and spot as the one-element forms of the lists', () => {
    const one = awsProviderSpecSchema().parse(minimal)
    expect(instanceTypesOf(one)).toEqual(['m7i.large'])
    expect(subnetEntriesOf(one)).toEqual([{ id: 'subnet-0123abcd' }])
    expect(capacityTypesOf(one)).toEqual(['on-demand'])
    expect(capacityTypesOf(awsProviderSpecSchema().parse({ ...minimal, spot: {} }))).toEqual([
      'spot',
    ])
    const lists = awsProviderSpecSchema().parse({
      ami: minimal.ami,
      instanceTypes: ['m7i.large', 'm6i.large'],
      subnets: [{ id: 'subnet-0a' }, { filters: [{ name: 'tag:tier', values: ['private'] }] }],
      capacityTypes: ['spot', 'on-demand'],
      spot: { maxPrice: '0.2' },
    })
    expect(instanceTypesOf(lists)).toEqual(['m7i.large', 'm6i.large'])
    expect(subnetEntriesOf(lists)).toHaveLength(2)
    expect(capacityTypesOf(lists)).toEqual(['spot', 'on-demand'])
  })

  it('defaults IMDSv2 required, no extra groups, tags or devices', () => {
    const spec = awsProviderSpecSchema().parse(minimal)
    expect(spec.metadataOptions).toEqual({
      httpTokens: 'required',
      httpPutResponseHopLimit: 2,
      httpEndpoint: 'enabled',
      instanceMetadataTags: 'disabled',
    })
    expect(spec.securityGroups).toEqual([])
    expect(spec.tags).toEqual({})
    expect(spec.blockDevices).toEqual([])
  })

  it('defaults volumes to encrypted gp3', () => {
    const spec = awsProviderSpecSchema().parse({ ...minimal, rootVolume: { sizeGiB: 50 } })
    expect(spec.rootVolume).toEqual({ sizeGiB: 50, type: 'gp3', encrypted: true })
  })

  it('AMI filters take public images only when allowPublicImages says so', () => {
    const filters = [{ name: 'name', values: ['ubuntu-*'] }]
    const issues = checkSchema(
      awsProviderSpecSchema(),
      { ...minimal, ami: { filters, allowPublicImages: true } },
      '',
    )
    expect(issues).toEqual([])
  })

  it('defaults the user data key', () => {
    const spec = awsProviderSpecSchema().parse({ ...minimal, userDataSecret: { name: 'boot' } })
    expect(spec.userDataSecret).toEqual({ name: 'boot', key: 'userData' })
  })

  it('accepts every field at once', () => {
    const issues = checkSchema(
      awsProviderSpecSchema(),
      {
        region: 'eu-west-1',
        credentialsSecret: { name: 'aws' },
        ami: {
          filters: [{ name: 'name', values: ['ubuntu-*'] }],
          owners: ['099720109477'],
          follow: 'Newest',
        },
        instanceType: 'c7g.xlarge',
        subnet: { filters: [{ name: 'tag:tier', values: ['private'] }] },
        securityGroups: [
          { id: 'sg-0abc' },
          { filters: [{ name: 'group-name', values: ['nodes'] }] },
        ],
        iamInstanceProfile: { name: 'nodes' },
        keyName: 'ops',
        userDataSecret: { name: 'boot', key: 'cloud-init' },
        tags: { team: 'infra' },
        placement: {
          availabilityZone: 'eu-west-1a',
          tenancy: 'default',
          groupName: 'pg',
          partitionNumber: 2,
        },
        rootVolume: { sizeGiB: 100, type: 'io2', iops: 3000, kmsKeyId: 'alias/nodes' },
        blockDevices: [{ deviceName: '/dev/sdf', volume: { sizeGiB: 10, throughputMiBps: 250 } }],
        spot: { maxPrice: '0.05' },
        metadataOptions: { httpTokens: 'optional', httpPutResponseHopLimit: 1 },
        publicIP: false,
        capacityReservation: { preference: 'open' },
      },
      '',
    )
    expect(issues).toEqual([])
  })

  it.each([
    ['no AMI', { ami: undefined }, 'ami'],
    [
      'an AMI with both id and filters',
      { ami: { id: 'ami-0abc', filters: [{ name: 'n', values: ['v'] }] } },
      'ami',
    ],
    ['an AMI with neither id nor filters', { ami: {} }, 'ami'],
    ['a malformed AMI id', { ami: { id: 'img-1' } }, 'ami.id'],
    ['following a fixed AMI id', { ami: { id: 'ami-0abc', follow: 'Newest' } }, 'ami.follow'],
    [
      'AMI filters without owners (any account can publish a matching image)',
      { ami: { filters: [{ name: 'name', values: ['ubuntu-*'] }], follow: 'Newest' } },
      'ami.owners',
    ],
    [
      'AMI filters with an empty owner list',
      { ami: { filters: [{ name: 'name', values: ['ubuntu-*'] }], owners: [] } },
      'ami.owners',
    ],
    ['a malformed instance type', { instanceType: 'large' }, 'instanceType'],
    [
      'a subnet with both id and filters',
      { subnet: { id: 'subnet-1', filters: [{ name: 'n', values: ['v'] }] } },
      'subnet',
    ],
    [
      'a malformed security group id',
      { securityGroups: [{ id: 'group-1' }] },
      'securityGroups[0].id',
    ],
    [
      'an empty filter value list',
      { subnet: { filters: [{ name: 'n', values: [] }] } },
      'subnet.filters[0].values',
    ],
    [
      'an instance profile with name and arn',
      { iamInstanceProfile: { name: 'a', arn: 'b' } },
      'iamInstanceProfile',
    ],
    [
      'a reserved tag',
      { tags: { 'machine-api.dev/machine-uid': 'x' } },
      'tags.machine-api.dev/machine-uid',
    ],
    ['an aws: tag', { tags: { 'aws:foo': 'x' } }, 'tags.aws:foo'],
    ['iops on gp2', { rootVolume: { sizeGiB: 8, type: 'gp2', iops: 3000 } }, 'rootVolume.iops'],
    [
      'throughput on io2',
      { rootVolume: { sizeGiB: 8, type: 'io2', throughputMiBps: 200 } },
      'rootVolume.throughputMiBps',
    ],
    [
      'a KMS key without encryption',
      { rootVolume: { sizeGiB: 8, encrypted: false, kmsKeyId: 'k' } },
      'rootVolume.kmsKeyId',
    ],
    [
      'a bad device name',
      { blockDevices: [{ deviceName: 'sdf', volume: { sizeGiB: 1 } }] },
      'blockDevices[0].deviceName',
    ],
    [
      'two devices with one name',
      {
        blockDevices: [
          { deviceName: '/dev/sdf', volume: { sizeGiB: 1 } },
          { deviceName: '/dev/sdf', volume: { sizeGiB: 2 } },
        ],
      },
      'blockDevices',
    ],
    [
      'a hop limit of 0',
      { metadataOptions: { httpPutResponseHopLimit: 0 } },
      'metadataOptions.httpPutResponseHopLimit',
    ],
    [
      'spot into a capacity reservation',
      { spot: {}, capacityReservation: { id: 'cr-0abc' } },
      'spot',
    ],
    [
      'a reservation with preference and id',
      { capacityReservation: { preference: 'open', id: 'cr-0abc' } },
      'capacityReservation',
    ],
    [
      'spot in capacityTypes into a capacity reservation',
      { capacityTypes: ['on-demand', 'spot'], capacityReservation: { id: 'cr-0abc' } },
      'capacityTypes',
    ],
    ['both instanceType and instanceTypes', { instanceTypes: ['m7i.large'] }, 'instanceTypes'],
    ['neither instanceType nor instanceTypes', { instanceType: undefined }, 'instanceTypes'],
    ['an empty instanceTypes', { instanceType: undefined, instanceTypes: [] }, 'instanceTypes'],
    [
      'a bad type among instanceTypes',
      { instanceType: undefined, instanceTypes: ['m7i.large', 'large'] },
      'instanceTypes[1]',
    ],
    [
      'a repeated instance type',
      { instanceType: undefined, instanceTypes: ['m7i.large', 'm7i.large'] },
      'instanceTypes',
    ],
    ['both subnet and subnets', { subnets: [{ id: 'subnet-0b' }] }, 'subnets'],
    ['neither subnet nor subnets', { subnet: undefined }, 'subnets'],
    [
      'a subnets entry with id and filters',
      {
        subnet: undefined,
        subnets: [
          { id: 'subnet-0a' },
          { id: 'subnet-0b', filters: [{ name: 'x', values: ['y'] }] },
        ],
      },
      'subnets[1]',
    ],
    [
      'a bad subnet id among subnets',
      { subnet: undefined, subnets: [{ id: 'sn-1' }] },
      'subnets[0].id',
    ],
    ['an unknown capacity type', { capacityTypes: ['reserved'] }, 'capacityTypes[0]'],
    ['a repeated capacity type', { capacityTypes: ['spot', 'spot'] }, 'capacityTypes'],
    ['spot options without spot', { spot: {}, capacityTypes: ['on-demand'] }, 'spot'],
    ['a bad region', { region: 'Europe' }, 'region'],
    ['a partition number of 8', { placement: { partitionNumber: 8 } }, 'placement.partitionNumber'],
    ['an unknown field (typo)', { instanceTyp: 'm5.large' }, '<root>'],
    ['a non-numeric spot price', { spot: { maxPrice: 'cheap' } }, 'spot.maxPrice'],
  ])('rejects %s at its field path', (_, patch, path) => {
    expect(issuesOf(patch)).toContain(path)
  })
})
