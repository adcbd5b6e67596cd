/**
 * @module A launch-group member's launch (group-launch.ts): the group's one RunInstances, shared
 * by the members in this process through a memo, then the member's claim of its instance. What
 * it cannot do through the group (no offering, a capacity miss, an unfilled place, an instance
 * gone) it hands back, and the member launches on its own.
 */
import {
  CreateTagsCommand,
  type EC2Client,
  type Instance,
  RunInstancesCommand,
} from '@aws-sdk/client-ec2'
import type { LaunchPlace } from '../../api/launch-group'
import type { Memo } from '../../memo'
import type { ActuatorContext, UnavailableOffering } from '../actuator'
import { classifyAwsError, isOfferingMiss, specFieldsOf } from './errors'
import { rememberedUnavailable } from './fallback'
import { memberInstance, needsClaim, toGroupRunInstancesInput } from './group-launch'
import { isLive } from './instance'
import { describeInstances } from './lookup'
import {
  activeUnavailable,
  offeringKey,
  orderOfferings,
  type PlacedOffering,
  type SubnetChoice,
} from './offerings'
import type { RunInstancesParams } from './run-instances-input'
import { capacityTypesOf, instanceTypesOf } from './spec'
import { machineTags } from './tags'

/** What a group's call gave: its instances, or the capacity miss every member then takes. */
export type GroupLaunch = { instances: Instance[] } | { missed: string }

/** How long the members in one process share a group's answer (they launch within seconds). */
export const groupLaunchTtlMs = 60_000

/** What a member's launch needs besides the Machine. */
export interface MemberLaunch {
  client: EC2Client
  groupLaunches: Memo<GroupLaunch>
  /** The Machine's request parameters, without the offering (the group's is chosen here). */
  params: Omit<RunInstancesParams, 'offering'>
  subnets: readonly SubnetChoice[]
  offered: ReadonlyMap<string, ReadonlySet<string>> | undefined
  /** The Machine's zone (spec.failureDomain), when it has one. */
  zone: string | undefined
}

/**
 * The group's offering: the first of the class's order for the group as a whole (its id picks
 * the zone and subnet as a UID would), with no memory. Every member picks the same one; when the
 * class now remembers it unavailable, the members launch on their own instead.
 */
function groupOffering(ctx: ActuatorContext, launch: MemberLaunch, place: LaunchPlace) {
  const spec = launch.params.spec
  const first = orderOfferings({
    instanceTypes: instanceTypesOf(spec),
    capacityTypes: capacityTypesOf(spec),
    subnets: launch.subnets,
    offered: launch.offered,
    unavailable: [],
    now: ctx.clock.now(),
    uid: place.group,
    zone: launch.zone,
  }).candidates[0]
  if (!first) return undefined
  const remembered = activeUnavailable(rememberedUnavailable(ctx), ctx.clock.now())
  return remembered.has(offeringKey(first)) ? undefined : first
}

/**
 * The member's instance, claimed (tagged with its UID, name and namespace), or, when the member
 * must launch on its own, the group's offering if it missed (for the member's own order to skip).
 */
export type MemberOutcome = { instance: Instance } | { missed?: UnavailableOffering }

/**
 * The group's one RunInstances (shared in this process, replayed by EC2 across processes) and
 * its offering, or undefined when the group has no offering to launch (the members go alone).
 */
export async function launchGroup(
  ctx: ActuatorContext,
  launch: MemberLaunch,
  place: LaunchPlace,
): Promise<{ outcome: GroupLaunch; offering: PlacedOffering } | undefined> {
  const offering = groupOffering(ctx, launch, place)
  if (!offering) return undefined
  const input = toGroupRunInstancesInput({ ...launch.params, offering }, place)
  const token = input.ClientToken ?? ''
  const outcome = await launch.groupLaunches.get(
    token,
    async (signal): Promise<GroupLaunch> => {
      ctx.logger.info({ imageId: input.ImageId, ...offering, size: place.size }, 'launching group')
      try {
        const out = await launch.client.send(new RunInstancesCommand(input), {
          abortSignal: signal,
        })
        return { instances: out.Instances ?? [] }
      } catch (error) {
        const classified = classifyAwsError(
          error,
          'RunInstances',
          specFieldsOf(launch.params.spec, offering.instanceType),
        )
        if (isOfferingMiss(classified)) return { missed: classified.reason }
        if (classified.reason !== 'IdempotentParameterMismatch') throw classified
        // The group launched with other parameters (its class changed since): its instances.
        const filters = [{ Name: 'client-token', Values: [token] }]
        return { instances: await describeInstances(launch.client, { Filters: filters }, signal) }
      }
    },
    ctx.signal,
  )
  return { outcome, offering }
}

/** The group's launch and the member's claim (see the module comment). */
export async function launchAsMember(
  ctx: ActuatorContext,
  launch: MemberLaunch,
  place: LaunchPlace,
): Promise<MemberOutcome> {
  const group = await launchGroup(ctx, launch, place)
  if (!group) return {}
  const { outcome, offering } = group
  if ('missed' in outcome) {
    const { instanceType, zone, capacityType } = offering
    const miss = { instanceType, zone, capacityType, reason: outcome.missed }
    await ctx.offerings?.record({ missed: [miss] })
    const expiresAt = new Date(ctx.clock.now().getTime() + groupLaunchTtlMs).toISOString()
    return { missed: { ...miss, expiresAt } }
  }
  const { uid } = launch.params.machine
  const instance = memberInstance(outcome.instances, place, uid)
  if (!instance || !isLive(instance)) return {}
  return { instance: await claim(ctx, launch, instance) }
}

/** Tags `instance` as the member's own (idempotent); the instance with those tags. */
export async function claim(
  ctx: ActuatorContext,
  launch: {
    client: EC2Client
    params: Pick<RunInstancesParams, 'machine' | 'ownerId' | 'spec'>
  },
  instance: Instance,
): Promise<Instance> {
  const { machine, ownerId, spec } = launch.params
  if (!needsClaim(instance, machine.uid)) return instance
  const tags = machineTags(machine, { ownerId, userTags: spec.tags })
  await launch.client
    .send(new CreateTagsCommand({ Resources: [instance.InstanceId ?? ''], Tags: tags }), {
      abortSignal: ctx.signal,
    })
    .catch((error: unknown) => {
      throw classifyAwsError(error, 'CreateTags')
    })
  const kept = (instance.Tags ?? []).filter((t) => !tags.some((n) => n.Key === t.Key))
  return { ...instance, Tags: [...kept, ...tags] }
}
