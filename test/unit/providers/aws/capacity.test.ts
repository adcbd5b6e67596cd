import { describe, expect, it } from 'vitest'
import { capacityOf } from '../../../../src/providers/aws/capacity'

describe('capacityOf (DescribeInstanceTypes -> Node capacity)', () => {
  it('gives vCPUs, memory and architecture as the Node reports them', () => {
    expect(
      capacityOf({
        VCpuInfo: { DefaultVCpus: 2 },
        MemoryInfo: { SizeInMiB: 8192 },
        ProcessorInfo: { SupportedArchitectures: ['arm64'] },
      }),
    ).toEqual({
      capacity: { cpu: '2', memory: '8192Mi' },
      nodeInfo: { architecture: 'arm64', operatingSystem: 'linux' },
    })
  })

  it('adds GPUs by their device plugin resource and instance storage', () => {
    const out = capacityOf({
      VCpuInfo: { DefaultVCpus: 8 },
      MemoryInfo: { SizeInMiB: 62464 },
      ProcessorInfo: { SupportedArchitectures: ['i386', 'x86_64'] },
      GpuInfo: { Gpus: [{ Manufacturer: 'NVIDIA', Count: 1 }] },
      InstanceStorageInfo: { TotalSizeInGB: 225 },
    })
    expect(out.capacity).toEqual({
      cpu: '8',
      memory: '62464Mi',
      'nvidia.com/gpu': '1',
      'ephemeral-storage': '225G',
    })
    expect(out.nodeInfo.architecture).toBe('amd64')
  })
})
