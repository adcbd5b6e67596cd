/**
 * @module The `aws` actuator: EC2 instances for Machines, launched over ordered offerings with
 * fallback on capacity misses, crash-safe (a ClientToken per offering + UID tags), tolerant of EC2's
 * eventual consistency (exists and delete also look up by ClientToken), and idempotent on delete.
 */
import {
  type EC2Client,
  type Instance,
  RunInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2'
import { TransientError } from '../../errors'
import type {
  Actuator,
  ActuatorContext,
  ActuatorMachine,
  DeleteResult,
  ProviderResult,
} from '../actuator'
import { InvalidConfigurationError, NotFoundError } from '../errors'
import { parseProviderSpec } from '../spec'
import { type AwsAccess, awsAccessJson, awsAccessOf, parseAwsAccess } from './access'
import type { ClientPool } from './client-pool'
import { classifyAwsError, isInstanceNotFound, specFieldsOf } from './errors'
import { launchWithFallback, rememberedUnavailable } from './fallback'
import {
  isLive,
  pickInstance,
  stateChangePollMs,
  stateOf,
  toProviderResult,
  withinLaunchGrace,
} from './instance'
import { type Observed, observeMachine } from './lookup'
import { describeOfferedZones } from './offered-zones'
import { orderOfferings } from './offerings'
import { resolveLaunch } from './resolve'
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
  spec: AwsProviderSpec
  access: AwsAccess
}

/** Creates the actuator; it holds no state besides the injected client pool. */
export function createAwsActuator(options: AwsActuatorOptions): Actuator {
  async function session(ctx: ActuatorContext): Promise<Session> {
    const spec = parseProviderSpec(awsProviderSpecSchema(), ctx.providerSpec)
    const access = awsAccessOf(spec, ctx.credentialsSecretRef)
    return { spec, access, client: await clientOf(ctx, access) }
  }

  async function clientOf(ctx: ActuatorContext, access: AwsAccess): Promise<EC2Client> {
    const ref = access.credentialsSecret ? { name: access.credentialsSecret } : undefined
    return options.clients.get(access.region, await readCredentialsSecret(ctx.secrets, ref))
  }

  /** The client of exists and delete: from the recorded access when given, else the spec's. */
  async function reach(ctx: ActuatorContext): Promise<EC2Client> {
    if (ctx.access) return clientOf(ctx, parseAwsAccess(ctx.access))
    return (await session(ctx)).client
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

  /** Launches the Machine over its offerings in order (see fallback.ts). */
  async function launch(ctx: ActuatorContext, machine: ActuatorMachine, s: Session) {
    const { name, namespace, uid } = machine.metadata
    const resolved = await resolveLaunch(s.client, s.spec, ctx.signal, ctx.image)
    const instanceTypes = instanceTypesOf(s.spec)
    const zone = machine.spec.failureDomain
    const order = orderOfferings({
      instanceTypes,
      capacityTypes: capacityTypesOf(s.spec),
      subnets: resolved.subnets,
      offered: await describeOfferedZones(s.client, instanceTypes, ctx.signal),
      unavailable: rememberedUnavailable(ctx),
      now: ctx.clock.now(),
      uid,
      zone,
    })
    if (zone && !resolved.subnets.some((subnet) => subnet.zone === zone)) {
      throw new InvalidConfigurationError(
        `no subnet of the class is in zone ${zone} (spec.failureDomain); add one to subnets`,
        { reason: 'InvalidSubnet', field: s.spec.subnets ? 'subnets' : 'subnet' },
      )
    }
    const userDataBase64 = await readUserDataBase64(ctx, s.spec)
    return await launchWithFallback(ctx, order, {
      typesField: s.spec.instanceTypes ? 'instanceTypes' : 'instanceType',
      adoptable: async () => {
        const seen = await observeMachine(s.client, machine, { going: false, signal: ctx.signal })
        return backing(ctx, machine, seen)
      },
      launch: async (offering) => {
        const input = toRunInstancesInput({
          spec: s.spec,
          machine: { name, namespace, uid },
          resolved,
          offering,
          ownerId: options.ownerId,
          userDataBase64,
        })
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
      const client = await reach(ctx)
      // Also by ClientToken: "no instance" must not be concluded from a tag index that lags.
      const seen = await observeMachine(client, machine, {
        going: false,
        signal: ctx.signal,
        byToken: true,
      })
      return backing(ctx, machine, seen) !== undefined
    },

    async create(ctx, machine) {
      const s = await session(ctx)
      // A concurrent or crashed attempt may have launched since the reconcile last looked (a
      // Machine's first reconcile does not look): adopt its instance. EC2's ClientToken closes
      // the remaining window.
      const seen = await observeMachine(s.client, machine, { going: false, signal: ctx.signal })
      const existing = backing(ctx, machine, seen)
      if (existing) return reported(adopted(ctx, existing), s)
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
      const seen = await observeMachine(s.client, machine, { going: false, signal: ctx.signal })
      const instance = backing(ctx, machine, seen)
      if (!instance) {
        const id = seen.recordedId ?? `tagged ${machine.metadata.uid}`
        throw new NotFoundError(`EC2 instance ${id} no longer exists`, {
          reason: 'InstanceNotFound',
        })
      }
      return reported(toProviderResult(instance, ctx.clock.now()), s)
    },

    async delete(ctx, machine) {
      const client = await reach(ctx)
      const seen = await observeMachine(client, machine, {
        going: true,
        signal: ctx.signal,
        byToken: true,
      })
      const all = [...(seen.recorded ? [seen.recorded] : []), ...seen.tagged]
      // Never declare "gone" while a just-launched instance may merely be invisible (throws).
      if (all.length === 0) backing(ctx, machine, seen)
      const toTerminate = [...new Set(all.filter(isLive).map((i) => i.InstanceId ?? ''))]
      const going = all.some((i) => stateOf(i) === 'shutting-down')
      if (toTerminate.length > 0) {
        await client
          .send(new TerminateInstancesCommand({ InstanceIds: toTerminate }), {
            abortSignal: ctx.signal,
          })
          .catch((error: unknown) => {
            if (isInstanceNotFound(error)) return
            throw classifyAwsError(error, 'TerminateInstances')
          })
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
