/**
 * @module The capacity of an `aws` instance type, from EC2 DescribeInstanceTypes: vCPUs, memory,
 * GPUs and architecture as the Node will report them. The mapping is pure so it is unit-tested.
 */
import {
  DescribeInstanceTypesCommand,
  type EC2Client,
  type InstanceTypeInfo,
} from '@aws-sdk/client-ec2'
import type { MachineCapacity } from '../capacity'
import { InvalidConfigurationError } from '../errors'
import { classifyAwsError } from './errors'

/**
 * EC2 architecture names as a Node's `kubernetes.io/arch` has them, in order of preference: a
 * type supporting both i386 and x86_64 runs 64-bit images.
 */
const architectures: ReadonlyArray<[string, string]> = [
  ['x86_64', 'amd64'],
  ['arm64', 'arm64'],
  ['i386', '386'],
]

/** The `kubernetes.io/arch` of an EC2 architecture name (an instance's or a type's), if it has one. */
export function kubernetesArch(ec2Architecture: string): string | undefined {
  return architectures.find(([ec2]) => ec2 === ec2Architecture)?.[1]
}

/** GPU manufacturers and the extended resource their device plugin advertises. */
const gpuResources: Record<string, string> = {
  NVIDIA: 'nvidia.com/gpu',
  AMD: 'amd.com/gpu',
}

/**
 * One instance type's capacity. Pods are left out: how many a Node takes depends on the CNI and
 * kubelet flags, not on EC2 (cluster-autoscaler then assumes the kubelet default, 110).
 */
export function capacityOf(info: InstanceTypeInfo): MachineCapacity {
  const capacity: Record<string, string> = {}
  const vcpus = info.VCpuInfo?.DefaultVCpus
  if (vcpus !== undefined) capacity.cpu = String(vcpus)
  const mib = info.MemoryInfo?.SizeInMiB
  if (mib !== undefined) capacity.memory = `${mib}Mi`
  for (const gpu of info.GpuInfo?.Gpus ?? []) {
    const resource = gpuResources[gpu.Manufacturer ?? '']
    if (!resource || !gpu.Count) continue
    capacity[resource] = String(Number(capacity[resource] ?? 0) + gpu.Count)
  }
  const storageGb = info.InstanceStorageInfo?.TotalSizeInGB
  if (storageGb) capacity['ephemeral-storage'] = `${storageGb}G`
  const supported: readonly string[] = info.ProcessorInfo?.SupportedArchitectures ?? []
  const arch = architectures.find(([ec2]) => supported.includes(ec2))?.[1]
  return {
    capacity,
    nodeInfo: { ...(arch ? { architecture: arch } : {}), operatingSystem: 'linux' },
  }
}

/**
 * Describes `type.instanceType`; an unknown type is a configuration error naming `type.field`
 * (`instanceType`, or `instanceTypes[0]` in the list form).
 */
export async function describeCapacity(
  client: EC2Client,
  type: { instanceType: string; field: string },
  signal: AbortSignal,
): Promise<MachineCapacity> {
  const { instanceType, field } = type
  const out = await client
    .send(new DescribeInstanceTypesCommand({ InstanceTypes: [instanceType as never] }), {
      abortSignal: signal,
    })
    .catch((error: unknown) => {
      throw classifyAwsError(error, 'DescribeInstanceTypes', field)
    })
  const info = out.InstanceTypes?.[0]
  if (!info) {
    throw new InvalidConfigurationError(
      `instance type ${instanceType} is not offered (check ${field})`,
      { reason: 'InvalidInstanceType', field },
    )
  }
  return capacityOf(info)
}
