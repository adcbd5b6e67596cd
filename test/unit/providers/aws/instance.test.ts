import type { Instance } from '@aws-sdk/client-ec2'
import { describe, expect, it } from 'vitest'
import {
  instanceAddresses,
  isLive,
  pickInstance,
  toProviderResult,
  withinLaunchGrace,
} from '../../../../src/providers/aws/instance'

function instance(id: string, state: string, launched = '2026-01-01T00:00:00Z'): Instance {
  return {
    InstanceId: id,
    State: { Name: state as never },
    LaunchTime: new Date(launched),
    Placement: { AvailabilityZone: 'eu-west-1a' },
  }
}

describe('aws instance views', () => {
  it.each([
    ['pending', true],
    ['running', true],
    ['stopping', true],
    ['stopped', true],
    ['shutting-down', false],
    ['terminated', false],
  ])('counts a %s instance as live: %s', (state, live) => {
    expect(isLive(instance('i-1', state))).toBe(live)
  })

  it.each([
    ['nothing', [], undefined],
    ['only terminated ones', [instance('i-1', 'terminated')], undefined],
    ['running over pending', [instance('i-1', 'pending'), instance('i-2', 'running')], 'i-2'],
    [
      'pending over stopped',
      [instance('i-1', 'stopped'), instance('i-2', 'pending')],
      'i-1'.replace('1', '2'),
    ],
    [
      'the oldest of two running',
      [
        instance('i-1', 'running', '2026-01-02T00:00:00Z'),
        instance('i-2', 'running', '2026-01-01T00:00:00Z'),
      ],
      'i-2',
    ],
    ['the lower id on a tie', [instance('i-b', 'running'), instance('i-a', 'running')], 'i-a'],
  ])('picks from %s', (_, instances, id) => {
    expect(pickInstance(instances)?.InstanceId).toBe(id)
  })

  it('reports private and public IPs and DNS names as NodeAddresses, without duplicates', () => {
    const addresses = instanceAddresses({
      PrivateIpAddress: '10.0.0.5',
      PublicIpAddress: '3.3.3.3',
      PrivateDnsName: 'ip-10-0-0-5.eu-west-1.compute.internal',
      PublicDnsName: 'ec2-3-3-3-3.eu-west-1.compute.amazonaws.com',
      NetworkInterfaces: [
        {
          PrivateIpAddresses: [{ PrivateIpAddress: '10.0.0.5' }, { PrivateIpAddress: '10.0.0.6' }],
          Ipv6Addresses: [{ Ipv6Address: '2001:db8::5' }],
        },
      ],
    })
    expect(addresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.5' },
      { type: 'InternalIP', address: '10.0.0.6' },
      { type: 'InternalIP', address: '2001:db8::5' },
      { type: 'ExternalIP', address: '3.3.3.3' },
      { type: 'InternalDNS', address: 'ip-10-0-0-5.eu-west-1.compute.internal' },
      { type: 'Hostname', address: 'ip-10-0-0-5.eu-west-1.compute.internal' },
      { type: 'ExternalDNS', address: 'ec2-3-3-3-3.eu-west-1.compute.amazonaws.com' },
    ])
  })

  it('builds providerID, status and a poll hint for a pending instance', () => {
    const result = toProviderResult(
      {
        ...instance('i-0abc12345678', 'pending'),
        ImageId: 'ami-1',
        InstanceType: 'm5.large',
        SubnetId: 'subnet-1',
      },
      new Date('2026-01-01T00:00:10Z'),
    )
    expect(result.providerID).toBe('aws:///eu-west-1a/i-0abc12345678')
    expect(result.providerStatus).toEqual({
      instanceId: 'i-0abc12345678',
      instanceState: 'pending',
      imageId: 'ami-1',
      instanceType: 'm5.large',
      availabilityZone: 'eu-west-1a',
      subnetId: 'subnet-1',
      launchTime: '2026-01-01T00:00:00.000Z',
      spot: false,
    })
    expect(result.requeueAfterMs).toBeGreaterThan(0)
  })

  it.each([
    [
      'by its private DNS name after launch',
      'ip-10-0-0-5.eu-west-1.compute.internal',
      '2026-01-01T00:01:00Z',
      'ip-10-0-0-5.eu-west-1.compute.internal',
    ],
    ['by none before EC2 assigns a name', '', '2026-01-01T00:01:00Z', undefined],
    // A kubelet not registered by then may have chosen another name: look among all Nodes.
    [
      'by none 10 minutes after launch',
      'ip-10-0-0-5.eu-west-1.compute.internal',
      '2026-01-01T00:10:00Z',
      undefined,
    ],
  ])('names the Node the kubelet registers: %s', (_, dnsName, now, nodeName) => {
    const running = { ...instance('i-1', 'running'), PrivateDnsName: dnsName }
    expect(toProviderResult(running, new Date(now)).nodeName).toBe(nodeName)
  })

  it('asks for no poll once running', () => {
    const running = toProviderResult(instance('i-1', 'running'), new Date('2026-01-01T00:01:00Z'))
    expect(running.requeueAfterMs).toBeUndefined()
  })

  it.each([
    ['launched 30 s ago', { launchTime: '2026-01-01T00:00:00Z' }, '2026-01-01T00:00:30Z', true],
    ['launched 5 min ago', { launchTime: '2026-01-01T00:00:00Z' }, '2026-01-01T00:05:00Z', false],
    ['no launch time', { instanceId: 'i-1' }, '2026-01-01T00:00:30Z', false],
    ['no status', undefined, '2026-01-01T00:00:30Z', false],
    ['a garbled launch time', { launchTime: 'yesterday' }, '2026-01-01T00:00:30Z', false],
  ])('treats an invisible instance %s as eventual consistency: %s', (_, status, now, expected) => {
    expect(withinLaunchGrace(status, new Date(now), 120_000)).toBe(expected)
  })
})
