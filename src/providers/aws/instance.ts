/**
 * @module Pure views of an EC2 instance: which states count as live, which of several instances
 * backs a Machine, and the ProviderResult (providerID, addresses, providerStatus) it yields.
 */
import type { Instance } from '@aws-sdk/client-ec2'
import type { JsonObject, NodeAddress, ProviderResult } from '../actuator'
import { formatAwsProviderID } from './provider-id'

/** States in which an instance backs its Machine. */
export const liveStates = ['pending', 'running', 'stopping', 'stopped'] as const
/** States in which an instance still exists but is going away. */
export const goingStates = ['shutting-down'] as const

/** Poll again this soon while an instance is pending or shutting down. */
export const stateChangePollMs = 10_000

/** The instance's state name (`running`, `terminated`...). */
export function stateOf(instance: Instance): string {
  return instance.State?.Name ?? 'unknown'
}

/** Whether the instance backs a Machine (not shutting down or terminated). */
export function isLive(instance: Instance): boolean {
  return (liveStates as readonly string[]).includes(stateOf(instance))
}

const preference: Record<string, number> = { running: 0, pending: 1, stopping: 2, stopped: 3 }

/**
 * The instance that backs a Machine when lookups return several: running before pending before
 * stopped, then the oldest launch (the one a node most likely joined from), then by id.
 */
export function pickInstance(instances: readonly Instance[]): Instance | undefined {
  return instances
    .filter(isLive)
    .toSorted(
      (a, b) =>
        (preference[stateOf(a)] ?? 9) - (preference[stateOf(b)] ?? 9) ||
        (a.LaunchTime?.getTime() ?? 0) - (b.LaunchTime?.getTime() ?? 0) ||
        (a.InstanceId ?? '').localeCompare(b.InstanceId ?? ''),
    )[0]
}

/** The Kubernetes NodeAddresses of an instance (IPv4, IPv6, DNS names), without duplicates. */
export function instanceAddresses(instance: Instance): NodeAddress[] {
  const out: NodeAddress[] = []
  const add = (type: NodeAddress['type'], address: string | undefined) => {
    if (address && !out.some((a) => a.type === type && a.address === address)) {
      out.push({ type, address })
    }
  }
  add('InternalIP', instance.PrivateIpAddress)
  for (const eni of instance.NetworkInterfaces ?? []) {
    for (const ip of eni.PrivateIpAddresses ?? []) add('InternalIP', ip.PrivateIpAddress)
    for (const ip of eni.Ipv6Addresses ?? []) add('InternalIP', ip.Ipv6Address)
  }
  add('ExternalIP', instance.PublicIpAddress)
  add('InternalDNS', instance.PrivateDnsName)
  // The kubelet on EC2 registers with its private DNS name as hostname by default.
  add('Hostname', instance.PrivateDnsName)
  add('ExternalDNS', instance.PublicDnsName)
  return out
}

/** The secret-free `status.providerStatus` of an instance. */
export function instanceStatus(instance: Instance): JsonObject {
  return {
    instanceId: instance.InstanceId ?? null,
    instanceState: stateOf(instance),
    imageId: instance.ImageId ?? null,
    instanceType: instance.InstanceType ?? null,
    availabilityZone: instance.Placement?.AvailabilityZone ?? null,
    subnetId: instance.SubnetId ?? null,
    launchTime: instance.LaunchTime?.toISOString() ?? null,
    spot: instance.InstanceLifecycle === 'spot',
  }
}

/**
 * How long after launch the instance's Node is looked for under its private DNS name alone. A
 * kubelet registers within minutes; one that has not by then may have registered under another
 * name (a hostname override, an OS with short hostnames), so the Machine controller then looks
 * among all Nodes too, as for a provider that names none.
 */
export const nodeNameGraceMs = 10 * 60_000

/**
 * The ProviderResult of an instance; asks to be polled again while it is pending. Names the Node
 * by the private DNS name for `nodeNameGraceMs` after launch (as of `now`).
 */
export function toProviderResult(instance: Instance, now: Date): ProviderResult {
  const zone = instance.Placement?.AvailabilityZone ?? ''
  // The kubelet on EC2 registers under the instance's private DNS name: the name EKS, kOps and
  // the AWS cloud provider give Nodes (ip-10-0-1-2.<region>.compute.internal, or
  // i-0abc.<region>.compute.internal with resource-based hostnames).
  const launched = instance.LaunchTime?.getTime() ?? now.getTime()
  const named = instance.PrivateDnsName && now.getTime() - launched < nodeNameGraceMs
  return {
    providerID: formatAwsProviderID(zone, instance.InstanceId ?? ''),
    addresses: instanceAddresses(instance),
    providerStatus: instanceStatus(instance),
    ...(named ? { nodeName: instance.PrivateDnsName } : {}),
    ...(stateOf(instance) === 'pending' ? { requeueAfterMs: stateChangePollMs } : {}),
  }
}

/**
 * Whether a recorded instance that EC2 says does not exist may just not be visible yet: EC2's
 * Describe calls are eventually consistent right after RunInstances.
 * https://docs.aws.amazon.com/ec2/latest/devguide/eventual-consistency.html
 */
export function withinLaunchGrace(providerStatus: unknown, now: Date, graceMs: number): boolean {
  if (typeof providerStatus !== 'object' || providerStatus === null) return false
  const launchTime = (providerStatus as { launchTime?: unknown }).launchTime
  if (typeof launchTime !== 'string') return false
  const launched = Date.parse(launchTime)
  return Number.isFinite(launched) && now.getTime() - launched < graceMs
}
