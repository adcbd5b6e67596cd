import { describe, expect, it } from 'vitest'
import {
  clientTokenFor,
  type RunInstancesParams,
  toRunInstancesInput,
} from '../../../../src/providers/aws/run-instances-input'
import {
  type AwsProviderSpecInput,
  awsProviderSpecSchema,
} from '../../../../src/providers/aws/spec'

const machine = { name: 'worker-a', namespace: 'prod', uid: '6f1c1c1e-1111-4a4a-9b9b-000000000001' }
const resolved = {
  imageId: 'ami-0123456789abcdef0',
  rootDeviceName: '/dev/sda1',
  securityGroupIds: ['sg-01', 'sg-02'],
}
const offering = {
  instanceType: 'm7i.large',
  zone: 'eu-west-1a',
  subnetId: 'subnet-0aaa',
  capacityType: 'on-demand' as const,
}

function input(spec: Partial<AwsProviderSpecInput>, extra: Partial<RunInstancesParams> = {}) {
  const parsed = awsProviderSpecSchema().parse({
    ami: { id: 'ami-0123456789abcdef0' },
    instanceType: 'm7i.large',
    subnet: { id: 'subnet-0aaa' },
    ...spec,
  })
  return toRunInstancesInput({
    spec: parsed,
    machine,
    resolved,
    offering: parsed.spot ? { ...offering, capacityType: 'spot' } : offering,
    ownerId: 'owner-1',
    ...extra,
  })
}

describe('toRunInstancesInput', () => {
  it('launches exactly one instance with a ClientToken derived from the Machine UID', () => {
    const out = input({})
    expect(out.MinCount).toBe(1)
    expect(out.MaxCount).toBe(1)
    expect(out.ClientToken).toBe(clientTokenFor(machine.uid, offering))
    expect(out.ClientToken).toContain(machine.uid)
    expect(out.ClientToken?.length).toBeLessThanOrEqual(64)
  })

  it('gives each offering of a Machine its own ClientToken, the same on every retry', () => {
    const tokens = new Set(
      [
        offering,
        { ...offering, instanceType: 'm7i.xlarge' },
        { ...offering, zone: 'eu-west-1b', subnetId: 'subnet-0bbb' },
        { ...offering, capacityType: 'spot' as const },
      ].map((o) => clientTokenFor(machine.uid, o)),
    )
    expect(tokens.size).toBe(4)
    for (const token of tokens) expect(token.length).toBeLessThanOrEqual(64)
    expect(clientTokenFor(machine.uid, { ...offering })).toBe(clientTokenFor(machine.uid, offering))
  })

  it('asks for the offering: its type, its subnet, spot only for a spot offering', () => {
    const spot = { ...offering, instanceType: 'c7i.large', subnetId: 'subnet-0ccc' }
    const out = input(
      { capacityTypes: ['spot', 'on-demand'] },
      {
        offering: { ...spot, capacityType: 'spot' },
      },
    )
    expect(out.InstanceType).toBe('c7i.large')
    expect(out.SubnetId).toBe('subnet-0ccc')
    expect(out.InstanceMarketOptions?.MarketType).toBe('spot')
    const onDemand = input({ capacityTypes: ['spot', 'on-demand'] }, { offering: spot })
    expect(onDemand.InstanceMarketOptions).toBeUndefined()
  })

  it('is deterministic (a retried launch sends identical parameters)', () => {
    expect(input({ tags: { a: '1' } })).toEqual(input({ tags: { a: '1' } }))
  })

  it('tags instance, volumes and network interfaces at launch with UID, name, namespace, owner', () => {
    const out = input({ tags: { team: 'infra', Name: 'custom' } })
    expect(out.TagSpecifications?.map((t) => t.ResourceType)).toEqual([
      'instance',
      'volume',
      'network-interface',
    ])
    const tags = Object.fromEntries(
      (out.TagSpecifications?.[0]?.Tags ?? []).map((t) => [t.Key, t.Value]),
    )
    expect(tags).toEqual({
      Name: 'custom',
      team: 'infra',
      'machine-api.dev/machine-uid': machine.uid,
      'machine-api.dev/machine-name': 'worker-a',
      'machine-api.dev/machine-namespace': 'prod',
      'machine-api.dev/owner': 'owner-1',
    })
  })

  it('names the instance after the Machine unless the user set Name', () => {
    const tags = input({}).TagSpecifications?.[0]?.Tags ?? []
    expect(tags.find((t) => t.Key === 'Name')?.Value).toBe('worker-a')
  })

  it('puts subnet and groups at the top level when no public IP choice is made', () => {
    const out = input({})
    expect(out.SubnetId).toBe('subnet-0aaa')
    expect(out.SecurityGroupIds).toEqual(['sg-01', 'sg-02'])
    expect(out.NetworkInterfaces).toBeUndefined()
  })

  it.each([true, false])(
    'moves subnet and groups onto the primary interface for publicIP=%s',
    (publicIP) => {
      const out = input({ publicIP })
      expect(out.SubnetId).toBeUndefined()
      expect(out.SecurityGroupIds).toBeUndefined()
      expect(out.NetworkInterfaces).toEqual([
        {
          DeviceIndex: 0,
          SubnetId: 'subnet-0aaa',
          Groups: ['sg-01', 'sg-02'],
          AssociatePublicIpAddress: publicIP,
          DeleteOnTermination: true,
        },
      ])
    },
  )

  it('requires IMDSv2 by default', () => {
    expect(input({}).MetadataOptions).toEqual({
      HttpTokens: 'required',
      HttpPutResponseHopLimit: 2,
      HttpEndpoint: 'enabled',
      InstanceMetadataTags: 'disabled',
    })
  })

  it('maps the root volume onto the AMI root device and extra volumes onto theirs', () => {
    const out = input({
      rootVolume: { sizeGiB: 100, type: 'io2', iops: 4000, kmsKeyId: 'alias/k' },
      blockDevices: [{ deviceName: '/dev/sdf', volume: { sizeGiB: 20, throughputMiBps: 300 } }],
    })
    expect(out.BlockDeviceMappings).toEqual([
      {
        DeviceName: '/dev/sda1',
        Ebs: {
          VolumeSize: 100,
          VolumeType: 'io2',
          Iops: 4000,
          Throughput: undefined,
          Encrypted: true,
          KmsKeyId: 'alias/k',
          DeleteOnTermination: true,
        },
      },
      {
        DeviceName: '/dev/sdf',
        Ebs: {
          VolumeSize: 20,
          VolumeType: 'gp3',
          Iops: undefined,
          Throughput: 300,
          Encrypted: true,
          KmsKeyId: undefined,
          DeleteOnTermination: true,
        },
      },
    ])
  })

  it('leaves block devices to the AMI when none are given', () => {
    expect(input({}).BlockDeviceMappings).toBeUndefined()
  })

  it.each([
    ['no market options', {}, undefined],
    [
      'one-time spot, terminated on interruption',
      { spot: { maxPrice: '0.1' } },
      {
        MarketType: 'spot',
        SpotOptions: {
          MaxPrice: '0.1',
          SpotInstanceType: 'one-time',
          InstanceInterruptionBehavior: 'terminate',
        },
      },
    ],
  ])('sets %s', (_, spec, expected) => {
    expect(input(spec).InstanceMarketOptions).toEqual(expected)
  })

  it.each([
    ['no reservation', {}, undefined],
    [
      'a preference',
      { capacityReservation: { preference: 'none' as const } },
      { CapacityReservationPreference: 'none' },
    ],
    [
      'a target reservation',
      { capacityReservation: { id: 'cr-0abc' } },
      { CapacityReservationTarget: { CapacityReservationId: 'cr-0abc' } },
    ],
  ])('sets the capacity reservation for %s', (_, spec, expected) => {
    expect(input(spec).CapacityReservationSpecification).toEqual(expected)
  })

  it('passes placement, profile, key, type and image through', () => {
    const out = input({
      placement: {
        availabilityZone: 'eu-west-1b',
        tenancy: 'dedicated',
        groupName: 'pg',
        partitionNumber: 3,
      },
      iamInstanceProfile: { arn: 'arn:aws:iam::1:instance-profile/n' },
      keyName: 'ops',
    })
    expect(out.Placement).toEqual({
      AvailabilityZone: 'eu-west-1b',
      Tenancy: 'dedicated',
      GroupName: 'pg',
      PartitionNumber: 3,
    })
    expect(out.IamInstanceProfile).toEqual({
      Arn: 'arn:aws:iam::1:instance-profile/n',
      Name: undefined,
    })
    expect(out.KeyName).toBe('ops')
    expect(out.InstanceType).toBe('m7i.large')
    expect(out.ImageId).toBe('ami-0123456789abcdef0')
  })

  it('carries user data only when given, already base64', () => {
    expect(input({}).UserData).toBeUndefined()
    expect(input({}, { userDataBase64: 'I2Nsb3VkLWNvbmZpZw==' }).UserData).toBe(
      'I2Nsb3VkLWNvbmZpZw==',
    )
  })

  it('lets EC2 pick the VPC default group when none resolved', () => {
    const out = input({}, { resolved: { ...resolved, securityGroupIds: [] } })
    expect(out.SecurityGroupIds).toBeUndefined()
  })
})
