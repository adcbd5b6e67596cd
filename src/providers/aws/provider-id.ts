/**
 * @module AWS providerIDs: `aws:///<availability-zone>/<instance-id>`, the form the AWS cloud
 * provider and kubelet's `--provider-id` use, so Nodes link to Machines by exact match.
 */

const instanceIdPattern = /^i-[0-9a-f]{8,17}$/

/** Whether `id` has the shape of an EC2 instance id. */
export function isInstanceId(id: string): boolean {
  return instanceIdPattern.test(id)
}

/** Formats the providerID of an instance in `availabilityZone`. */
export function formatAwsProviderID(availabilityZone: string, instanceId: string): string {
  return `aws:///${availabilityZone}/${instanceId}`
}

/**
 * The instance id in a providerID, or undefined when it is not an AWS one. Accepts the canonical
 * `aws:///zone/i-…`, the legacy `aws://zone/i-…` and region-based forms other tools write.
 */
export function parseAwsProviderID(providerID: string | undefined): string | undefined {
  if (!providerID?.startsWith('aws://')) return undefined
  const last = providerID.slice('aws://'.length).split('/').pop() ?? ''
  return isInstanceId(last) ? last : undefined
}
