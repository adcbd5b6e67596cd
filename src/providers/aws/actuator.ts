/**
 * @module The `aws` actuator: EC2 instances for Machines, launched over ordered offerings with
 * fallback on capacity misses, crash-safe (a ClientToken per offering + UID tags), tolerant of EC2's
 * eventual consistency (exists and delete also look up by ClientToken), and idempotent on delete.
 */
import { type EC2Client, type Instance, RunInstancesCommand } from '@aws-sdk/client-ec2'
import { ANNOTATIONS } from '../../api/group'
import { parseLaunchPlace } from '../../api/launch-group'
import { TransientError } from '../../errors'
import type {
  Actuator,
  ActuatorContext,
  ActuatorMachine,
  DeleteResult,
  ProviderResult,
  UnavailableOffering,
} from '../actuator'
import { InvalidConfigurationError, NotFoundError } from '../errors'
import { parseProviderSpec } from '../spec'
import { type AwsAccess, awsAccessJson, awsAccessOf, parseAwsAccess } from './access'
import type { ClientLookups, ClientPool } from './client-pool'
import { classifyAwsError, specFieldsOf } from './errors'
import { launchWithFallback, rememberedUnavailable } from './fallback'
import { isOfGroup, memberInstance } from './group-launch'
import { claim, launchAsMember, launchGroup } from './group-member'
import {
  isLive,
  pickInstance,
  stateChangePollMs,
  stateOf,
  toProviderResult,
  withinLaunchGrace,
} from './instance'
import { launchFactsKey, readLaunchFacts } from './launch-facts'
import { type Observed, observeMachine } from './lookup'
import { orderOfferings } from './offerings'
import { toRunInstancesInput } from './run-instances-input'
import { readCredentialsSecret, readUserDataBase64 } from './secrets'
import {
  type AwsProviderSpec,
  awsProviderSpecSchema,
  capacityTypesOf,
  instanceTypesOf,
} from './spec'

/** Settings of one `aws` actuator. */
export interface AwsActuatorOptions {
  clients: ClientPool
  /** The ownership tag value (`machine-api.dev/owner`) of this deployment. */
  ownerId: string
  /** How long after launch a recorded-but-invisible instance is presumed eventually consistent. */
  launchGraceMs: number
}

interface Session {
  client: EC2Client
  lookups: ClientLookups
  spec: AwsProviderSpec
  access: AwsAccess
}

/** The Machine's place in a launch group, when its set gave it one. */
function launchPlaceOf(machine: ActuatorMachine) {
  return parseLaunchPlace(machine.metadata.annotations?.[ANNOTATIONS.launchGroup])
}

/** Creates the actuator; it holds no state besides the injected client pool. */
export function createAwsActuator(options: AwsActuatorOptions): Actuator {
  async function session(ctx: ActuatorContext): Promise<Session> {
    const spec = parseProviderSpec(awsProviderSpecSchema(), ctx.providerSpec)
    const access = awsAccessOf(spec, ctx.credentialsSecretRef)
    const client = await clientOf(ctx, access)
    return { spec, access, client, lookups: options.clients.lookupsOf(client) }
  }

  async function clientOf(ctx: ActuatorContext, access: AwsAccess): Promise<EC2Client> {
    const ref = access.credentialsSecret ? { name: access.credentialsSecret } : undefined
    return options.clients.get(access.region, await readCredentialsSecret(ctx.secrets, ref))
  }

  /** The client of exists and delete: from the recorded access when given, else the spec's. */
  async function reach(ctx: ActuatorContext): Promise<ClientLookups> {
    if (!ctx.access) return (await session(ctx)).lookups
    return options.clients.lookupsOf(await clientOf(ctx, parseAwsAccess(ctx.access)))
  }

  /** A result with the access later exists and delete calls need (access.ts). */
  function reported(result: ProviderResult, s: Session): ProviderResult {
    return { ...result, access: awsAccessJson(s.access) }
  }

  /**
   * The live instance backing the Machine, if any. A recorded instance EC2 cannot see yet is
   * reported as a transient error (poll again) rather than as "gone", which would fail the Machine.
   */
  function backing(ctx: ActuatorContext, machine: ActuatorMachine, seen: Observed) {
    const candidates = [...(seen.recorded ? [seen.recorded] : []), ...seen.tagged]
    const instance = pickInstance(candidates)
    if (instance) return instance
    const invisible = seen.recordedId !== undefined && seen.recorded === undefined
    const status = machine.status?.providerStatus
    if (invisible && withinLaunchGrace(status, ctx.clock.now(), options.launchGraceMs)) {
      throw new TransientError(
        `instance ${seen.recordedId} is not visible in EC2 yet (eventual consistency after launch)`,
        { reason: 'InstanceNotYetVisible', retryAfterMs: stateChangePollMs },
      )
    }
    return undefined
  }

  /** What the Machine's launches ask of EC2, whether alone or as a launch group's member. */
  async function launchInputs(ctx: ActuatorContext, machine: ActuatorMachine, s: Session) {
    const { name, namespace, uid } = machine.metadata
    const { resolved, offered } = await s.lookups.launchFacts.get(
      launchFactsKey(s.spec, ctx.image),
      (signal) => readLaunchFacts(s.client, s.spec, signal, ctx.image),
      ctx.signal,
    )
    const zone = machine.spec.failureDomain
    if (zone && !resolved.subnets.some((subnet) => subnet.zone === zone)) {
      throw new InvalidConfigurationError(
        `no subnet of the class is in zone ${zone} (spec.failureDomain); add one to subnets`,
        { reason: 'InvalidSubnet', field: s.spec.subnets ? 'subnets' : 'subnet' },
      )
    }
    const params = {
      spec: s.spec,
      machine: { name, namespace, uid },
      resolved,
      ownerId: options.ownerId,
      userDataBase64: await readUserDataBase64(ctx, s.spec),
    }
    const member = {
      client: s.client,
      groupLaunches: s.lookups.groupLaunches,
      params,
      subnets: resolved.subnets,
      offered,
      zone,
    }
    return { params, member, resolved, offered, zone }
  }

  /**
   * Launches the Machine: through its launch group when it has a place in one (group-member.ts),
   * else, or when the group cannot give it an instance, over its offerings in order (fallback.ts).
   */
  async function launch(ctx: ActuatorContext, machine: ActuatorMachine, s: Session) {
    const { uid } = machine.metadata
    const { params, member, resolved, offered, zone } = await launchInputs(ctx, machine, s)
    const place = launchPlaceOf(machine)
    const missed: UnavailableOffering[] = []
    if (place) {
      const joined = await launchAsMember(ctx, member, place)
      if ('instance' in joined) return { instance: joined.instance, adopted: false }
      if (joined.missed) missed.push(joined.missed)
    }
    const order = orderOfferings({
      instanceTypes: instanceTypesOf(s.spec),
      capacityTypes: capacityTypesOf(s.spec),
      subnets: resolved.subnets,
      offered,
      // The group's miss, before the class's memory of it reaches this Machine's context.
      unavailable: [...rememberedUnavailable(ctx), ...missed],
      now: ctx.clock.now(),
      uid,
      zone,
    })
    return await launchWithFallback(ctx, order, {
      typesField: s.spec.instanceTypes ? 'instanceTypes' : 'instanceType',
      adoptable: async () => {
        const seen = await observeMachine(s.lookups.instances, machine, {
          going: false,
          signal: ctx.signal,
        })
        return backing(ctx, machine, seen)
      },
      launch: async (offering) => {
        const input = toRunInstancesInput({ ...params, offering })
        // Only ids and types: the request also carries user data, which must never reach a log.
        ctx.logger.info({ imageId: input.ImageId, ...offering }, 'launching EC2 instance')
        const out = await s.client
          .send(new RunInstancesCommand(input), { abortSignal: ctx.signal })
          .catch((error: unknown) => {
            throw classifyAwsError(
              error,
              'RunInstances',
              specFieldsOf(s.spec, offering.instanceType),
            )
          })
        const instance = out.Instances?.[0]
        if (!instance?.InstanceId) {
          throw new TransientError('EC2 RunInstances returned no instance', { reason: 'EC2Error' })
        }
        return instance
      },
    })
  }

  /**
   * `instance` tagged as the Machine's own when it is the Machine's place in its launch group
   * and not tagged yet (a member that crashed between the group's launch and its claim).
   */
  async function owned(
    ctx: ActuatorContext,
    machine: ActuatorMachine,
    s: Session,
    instance: Instance,
  ): Promise<Instance> {
    const place = launchPlaceOf(machine)
    if (!place || !isOfGroup(instance, place.group)) return instance
    const { name, namespace, uid } = machine.metadata
    const params = { machine: { name, namespace, uid }, ownerId: options.ownerId, spec: s.spec }
    return await claim(ctx, { client: s.client, params }, instance)
  }

  /**
   * The instance of a launch-group member that is deleted before any instance was seen for it:
   * its group's call is made (or replayed) now, so its place is known and taken down with it,
   * rather than launched later by another member for a Machine that is gone.
   */
  async function placeLeft(ctx: ActuatorContext, machine: ActuatorMachine): Promise<Instance[]> {
    const place = launchPlaceOf(machine)
    if (!place) return []
    try {
      const s = await session(ctx)
      const { member } = await launchInputs(ctx, machine, s)
      const group = await launchGroup(ctx, member, place)
      if (!group || 'missed' in group.outcome) return []
      const instance = memberInstance(group.outcome.instances, place, machine.metadata.uid)
      if (!instance?.InstanceId) return []
      // The answer may be a kept one: the instance as it is now (the answer's, if not visible yet).
      return [(await s.lookups.instances.byId(instance.InstanceId, ctx.signal)) ?? instance]
    } catch (error) {
      // The class cannot launch any more (gone, or its image or subnets): nothing to take down
      // now, and the orphan sweep takes a place launched later.
      ctx.logger.info({ err: String(error) }, 'launch group of a deleted member not checked')
      return []
    }
  }

  function adopted(ctx: ActuatorContext, instance: Instance): ProviderResult {
    // Visible to operators: this is what recovering from a crash mid-create looks like.
    ctx.logger.info({ instanceId: instance.InstanceId }, 'found existing instance for Machine')
    ctx.events.record(
      'Normal',
      'InstanceAdopted',
      `Found EC2 instance ${instance.InstanceId} already launched for this Machine`,
    )
    return toProviderResult(instance, ctx.clock.now())
  }

  return {
    async exists(ctx, machine) {
      const { instances } = await reach(ctx)
      // Also by ClientToken: "no instance" must not be concluded from a tag index that lags.
      const seen = await observeMachine(instances, machine, {
        going: false,
        signal: ctx.signal,
        byToken: true,
      })
      if (backing(ctx, machine, seen) !== undefined) return true
      // A member deleted before any instance was seen for it: its place may still be launched.
      return machine.metadata.deletionTimestamp !== undefined && !seen.recordedId
        ? (await placeLeft(ctx, machine)).some(isLive)
        : false
    },

    async create(ctx, machine) {
      const s = await session(ctx)
      // A concurrent or crashed attempt may have launched since the reconcile last looked (a
      // Machine's first reconcile does not look): adopt its instance. EC2's ClientToken closes
      // the remaining window.
      const seen = await observeMachine(s.lookups.instances, machine, {
        going: false,
        signal: ctx.signal,
      })
      const existing = backing(ctx, machine, seen)
      if (existing) return reported(adopted(ctx, await owned(ctx, machine, s, existing)), s)
      if (seen.recordedId) {
        // The Machine's instance existed and is gone: a Machine is never re-provisioned (its
        // Node identity died with the instance); its MachineSet replaces it.
        throw new InvalidConfigurationError(
          `instance ${seen.recordedId} of this Machine is ${seen.recorded ? stateOf(seen.recorded) : 'gone'}; ` +
            'delete the Machine (its MachineSet replaces it)',
          { reason: 'InstanceTerminated' },
        )
      }
      const outcome = await launch(ctx, machine, s)
      if (outcome.adopted) return reported(adopted(ctx, outcome.instance), s)
      const instance = outcome.instance
      if (!isLive(instance)) {
        // The token returned the instance of an earlier launch that has since been terminated;
        // EC2 will not launch another for this Machine, and a Machine is never re-provisioned.
        throw new InvalidConfigurationError(
          `instance ${instance.InstanceId} of this Machine is ${stateOf(instance)}; ` +
            'delete the Machine (its MachineSet replaces it)',
          { reason: 'InstanceTerminated' },
        )
      }
      return reported(toProviderResult(instance, ctx.clock.now()), s)
    },

    async update(ctx, machine) {
      const s = await session(ctx)
      const seen = await observeMachine(s.lookups.instances, machine, {
        going: false,
        signal: ctx.signal,
      })
      const instance = backing(ctx, machine, seen)
      if (!instance) {
        const id = seen.recordedId ?? `tagged ${machine.metadata.uid}`
        throw new NotFoundError(`EC2 instance ${id} no longer exists`, {
          reason: 'InstanceNotFound',
        })
      }
      const own = await owned(ctx, machine, s, instance)
      return reported(toProviderResult(own, ctx.clock.now()), s)
    },

    async delete(ctx, machine) {
      const { instances, terminations } = await reach(ctx)
      const seen = await observeMachine(instances, machine, {
        going: true,
        signal: ctx.signal,
        byToken: true,
      })
      const all = [...(seen.recorded ? [seen.recorded] : []), ...seen.tagged]
      if (all.length === 0 && !seen.recordedId) all.push(...(await placeLeft(ctx, machine)))
      // Never declare "gone" while a just-launched instance may merely be invisible (throws).
      if (all.length === 0) backing(ctx, machine, seen)
      const toTerminate = [...new Set(all.filter(isLive).map((i) => i.InstanceId ?? ''))]
      const going = all.some((i) => stateOf(i) === 'shutting-down')
      if (toTerminate.length > 0) {
        await Promise.all(toTerminate.map((id) => terminations.terminate(id, ctx.signal)))
        ctx.events.record('Normal', 'InstanceTerminating', `Terminating ${toTerminate.join(', ')}`)
      }
      const result: DeleteResult =
        toTerminate.length > 0 || going
          ? { done: false, requeueAfterMs: stateChangePollMs }
          : { done: true }
      return result
    },
  }
}
