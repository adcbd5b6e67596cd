/**
 * @module One EC2 call for the Machines of a launch group (src/api/launch-group.ts): RunInstances
 * with MinCount 1 and MaxCount the group's size, a ClientToken from the group alone and tags
 * that name the group, not a Machine. Every member makes (or shares) the same call: EC2 answers
 * a repeated token with the first call's instances, so a crash anywhere, or members in different
 * processes, never launch twice. Each member then takes the instance at its index
 * (AmiLaunchIndex) and tags it as its own with CreateTags, so from then on it is found, swept
 * and trusted like an instance launched alone. Places the call did not fill, and a group whose
 * offering has no capacity, launch on their own. Pure: the I/O is in group-member.ts.
 */
import { createHash } from 'node:crypto'
import type { Instance, RunInstancesCommandInput } from '@aws-sdk/client-ec2'
import type { LaunchPlace } from '../../api/launch-group'
import type { PlacedOffering } from './offerings'
import { type RunInstancesParams, toRunInstancesInput } from './run-instances-input'
import { type Ec2Tag, tagKeys, tagValue } from './tags'

/** The ClientToken prefix of a group's launches: `client-token` filters find them by it. */
export function groupTokenPattern(group: string): string {
  return `machine-api-g-${group}-*`
}

/** The ClientToken of a group's launch of one offering (at most 64 characters: 15 + 16 + 9). */
export function groupClientToken(place: LaunchPlace, offering: PlacedOffering): string {
  const what = `${place.size}/${offering.instanceType}/${offering.subnetId}/${offering.capacityType}`
  const digest = createHash('sha256').update(what).digest('hex').slice(0, 8)
  return `machine-api-g-${place.group}-${digest}`
}

/** Whether an instance came from a launch of `group` (by its ClientToken). */
export function isOfGroup(instance: Instance, group: string): boolean {
  return (instance.ClientToken ?? '').startsWith(`machine-api-g-${group}-`)
}

/**
 * The tags of a group's instances: the user's, a Name for the group, the owner and the group.
 * Nothing of one Machine, so every member asks the same.
 */
function groupTags(
  namespace: string,
  place: LaunchPlace,
  options: { ownerId: string; userTags: Record<string, string> },
): Ec2Tag[] {
  const merged: Record<string, string> = {
    Name: `${namespace}/launch-group-${place.group}`,
    ...options.userTags,
    [tagKeys.machineNamespace]: namespace,
    [tagKeys.owner]: options.ownerId,
    [tagKeys.launchGroup]: place.group,
  }
  return Object.entries(merged).map(([Key, Value]) => ({ Key, Value }))
}

/** The group's RunInstances: the Machine's request with the group's count, token and tags. */
export function toGroupRunInstancesInput(
  params: RunInstancesParams,
  place: LaunchPlace,
): RunInstancesCommandInput {
  const single = toRunInstancesInput(params)
  const tags = groupTags(params.machine.namespace, place, {
    ownerId: params.ownerId,
    userTags: params.spec.tags,
  })
  return {
    ...single,
    MinCount: 1,
    MaxCount: place.size,
    ClientToken: groupClientToken(place, params.offering),
    TagSpecifications: single.TagSpecifications?.map((s) => ({ ...s, Tags: tags })),
  }
}

/**
 * The instance of the group at the member's index, unless another Machine claimed it (its UID
 * tag names another Machine): EC2 numbers a call's instances 0..n-1 in AmiLaunchIndex.
 */
export function memberInstance(
  instances: readonly Instance[],
  place: LaunchPlace,
  uid: string,
): Instance | undefined {
  return instances.find((instance) => {
    if (!isOfGroup(instance, place.group) || instance.AmiLaunchIndex !== place.index) return false
    const claimed = tagValue(instance.Tags, tagKeys.machineUid)
    return claimed === undefined || claimed === uid
  })
}

/** Whether the member still has to tag its instance as its own. */
export function needsClaim(instance: Instance, uid: string): boolean {
  return tagValue(instance.Tags, tagKeys.machineUid) !== uid
}
