/**
 * @module The pure translation of an `aws` provider spec plus resolved ids into one RunInstances
 * request. No I/O: every lookup (AMI filters, subnet filters, user data) happens before.
 */

import { createHash } from 'node:crypto'
import type {
  BlockDeviceMapping,
  RunInstancesCommandInput,
  TagSpecification,
} from '@aws-sdk/client-ec2'
import type { PlacedOffering } from './offerings'
import type { AwsProviderSpec } from './spec'
import { type Ec2Tag, machineTags } from './tags'

/** Ids the provider looked up for the spec's filters. */
export interface ResolvedLaunch {
  imageId: string
  /** The AMI's root device name, needed to override the root volume. */
  rootDeviceName?: string | undefined
  /** Empty: let EC2 use the VPC's default group. */
  securityGroupIds: string[]
}

/** Everything `toRunInstancesInput` needs. */
export interface RunInstancesParams {
  spec: AwsProviderSpec
  machine: { name: string; namespace: string; uid: string }
  resolved: ResolvedLaunch
  /** The instance type, zone (subnet) and capacity type this launch asks for. */
  offering: PlacedOffering
  /** The ownership tag value of this deployment. */
  ownerId: string
  /** User data already base64-encoded; never logged. */
  userDataBase64?: string | undefined
}

/**
 * The RunInstances idempotency token of a Machine's launch of one offering. EC2 returns the
 * instance an earlier call with the same token launched instead of launching another, which closes
 * the duplicate-instance window between launch and status write for that offering; across
 * offerings, the lookup by UID tag before every launch does.
 * https://docs.aws.amazon.com/ec2/latest/devguide/ec2-api-idempotency.html
 */
export function clientTokenFor(uid: string, offering: PlacedOffering): string {
  const where = `${offering.instanceType}/${offering.subnetId}/${offering.capacityType}`
  const digest = createHash('sha256').update(where).digest('hex').slice(0, 8)
  // At most 64 ASCII characters: 12 + a 36-character UID + 9.
  return `machine-api-${uid}-${digest}`
}

type Volume = AwsProviderSpec['blockDevices'][number]['volume']

function ebs(volume: Volume): NonNullable<BlockDeviceMapping['Ebs']> {
  return {
    VolumeSize: volume.sizeGiB,
    VolumeType: volume.type,
    Iops: volume.iops,
    Throughput: volume.throughputMiBps,
    Encrypted: volume.encrypted,
    KmsKeyId: volume.kmsKeyId,
    // A Machine's disks live and die with it; anything else leaks volumes on scale-down.
    DeleteOnTermination: true,
  }
}

function blockDeviceMappings(params: RunInstancesParams): BlockDeviceMapping[] | undefined {
  const { spec, resolved } = params
  const mappings: BlockDeviceMapping[] = []
  if (spec.rootVolume) {
    mappings.push({ DeviceName: resolved.rootDeviceName ?? '/dev/xvda', Ebs: ebs(spec.rootVolume) })
  }
  for (const device of spec.blockDevices) {
    mappings.push({ DeviceName: device.deviceName, Ebs: ebs(device.volume) })
  }
  return mappings.length > 0 ? mappings : undefined
}

function tagSpecifications(tags: Ec2Tag[]): TagSpecification[] {
  // Tagged at launch, atomically: an instance can never exist without its Machine UID tag.
  return (['instance', 'volume', 'network-interface'] as const).map((ResourceType) => ({
    ResourceType,
    Tags: tags,
  }))
}

/** Builds the RunInstances request for one Machine (MinCount = MaxCount = 1). */
export function toRunInstancesInput(params: RunInstancesParams): RunInstancesCommandInput {
  const { spec, machine, resolved, offering } = params
  const tags = machineTags(machine, { ownerId: params.ownerId, userTags: spec.tags })
  const groups = resolved.securityGroupIds.length > 0 ? resolved.securityGroupIds : undefined
  // A public IP choice can only be expressed on an explicit primary network interface, which then
  // carries the subnet and groups instead of the top-level fields.
  const network: Partial<RunInstancesCommandInput> =
    spec.publicIP === undefined
      ? { SubnetId: offering.subnetId, SecurityGroupIds: groups }
      : {
          NetworkInterfaces: [
            {
              DeviceIndex: 0,
              SubnetId: offering.subnetId,
              Groups: groups,
              AssociatePublicIpAddress: spec.publicIP,
              DeleteOnTermination: true,
            },
          ],
        }
  const placement = spec.placement
  const reservation = spec.capacityReservation
  return {
    MinCount: 1,
    MaxCount: 1,
    ClientToken: clientTokenFor(machine.uid, offering),
    ImageId: resolved.imageId,
    InstanceType: offering.instanceType as RunInstancesCommandInput['InstanceType'],
    ...network,
    KeyName: spec.keyName,
    UserData: params.userDataBase64,
    IamInstanceProfile: spec.iamInstanceProfile
      ? { Name: spec.iamInstanceProfile.name, Arn: spec.iamInstanceProfile.arn }
      : undefined,
    Placement: placement
      ? {
          AvailabilityZone: placement.availabilityZone,
          Tenancy: placement.tenancy,
          GroupName: placement.groupName,
          PartitionNumber: placement.partitionNumber,
        }
      : undefined,
    BlockDeviceMappings: blockDeviceMappings(params),
    InstanceMarketOptions:
      offering.capacityType === 'spot'
        ? {
            MarketType: 'spot',
            SpotOptions: {
              MaxPrice: spec.spot?.maxPrice,
              SpotInstanceType: 'one-time',
              InstanceInterruptionBehavior: 'terminate',
            },
          }
        : undefined,
    MetadataOptions: {
      HttpTokens: spec.metadataOptions.httpTokens,
      HttpPutResponseHopLimit: spec.metadataOptions.httpPutResponseHopLimit,
      HttpEndpoint: spec.metadataOptions.httpEndpoint,
      InstanceMetadataTags: spec.metadataOptions.instanceMetadataTags,
    },
    CapacityReservationSpecification: reservation
      ? reservation.id
        ? { CapacityReservationTarget: { CapacityReservationId: reservation.id } }
        : { CapacityReservationPreference: reservation.preference }
      : undefined,
    TagSpecifications: tagSpecifications(tags),
  }
}
