/** The demo's simulated EC2 Nodes carry the labels a kubelet and the cloud node controller set. */
import { describe, expect, it } from 'vitest'
import { nodeForInstance } from '../../../src/dev/ec2-node-simulator'

const instance = {
  InstanceId: 'i-0123456789abcdef0',
  InstanceType: 'm6g.large' as const,
  Architecture: 'arm64' as const,
  Placement: { AvailabilityZone: 'eu-west-1b' },
  PrivateIpAddress: '10.0.1.17',
}

describe('nodeForInstance', () => {
  it('labels the Node with hostname, os, arch, instance type, zone and region', () => {
    expect(nodeForInstance(instance, 'eu-west-1')?.metadata?.labels).toMatchObject({
      'kubernetes.io/hostname': 'ip-10-0-1-17.ec2.internal',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'arm64',
      'beta.kubernetes.io/os': 'linux',
      'beta.kubernetes.io/arch': 'arm64',
      'node.kubernetes.io/instance-type': 'm6g.large',
      'topology.kubernetes.io/zone': 'eu-west-1b',
      'topology.kubernetes.io/region': 'eu-west-1',
    })
  })

  it('names x86_64 amd64, as a kubelet built for it reports', () => {
    const labels = nodeForInstance({ ...instance, Architecture: 'x86_64' })?.metadata?.labels
    expect(labels?.['kubernetes.io/arch']).toBe('amd64')
  })

  it('leaves out what it does not know rather than guessing', () => {
    const labels = nodeForInstance({ ...instance, Architecture: undefined })?.metadata?.labels
    expect(labels).not.toHaveProperty('kubernetes.io/arch')
    expect(labels).not.toHaveProperty('topology.kubernetes.io/region')
  })
})
