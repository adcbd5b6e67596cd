/**
 * @module Finds the instances behind a Machine: by the instance id it recorded, then by its UID
 * tag, which is what makes a crash between RunInstances and the status write harmless, and (for
 * `exists` and `delete`, when those find nothing) by the ClientToken its launches carried: a
 * second index, since EC2's tag lookups lag a launch (eventual consistency).
 */
import {
  DescribeInstancesCommand,
  type DescribeInstancesCommandInput,
  type EC2Client,
  type Instance,
  type Reservation,
} from '@aws-sdk/client-ec2'
import { ANNOTATIONS } from '../../api/group'
import { parseLaunchPlace } from '../../api/launch-group'
import type { ActuatorMachine } from '../actuator'
import { NotFoundError } from '../errors'
import { classifyAwsError } from './errors'
import { memberInstance } from './group-launch'
import { goingStates, liveStates } from './instance'
import { parseAwsProviderID } from './provider-id'

/** Every reservation matching `input`, all pages; EC2 errors come back classified. */
export async function describeReservations(
  client: EC2Client,
  input: DescribeInstancesCommandInput,
  signal: AbortSignal,
): Promise<Reservation[]> {
  const reservations: Reservation[] = []
  let token: string | undefined
  do {
    const out = await client
      .send(new DescribeInstancesCommand({ ...input, NextToken: token }), { abortSignal: signal })
      .catch((error: unknown) => {
        throw classifyAwsError(error, 'DescribeInstances')
      })
    reservations.push(...(out.Reservations ?? []))
    token = out.NextToken
  } while (token)
  return reservations
}

/** Every instance matching `input`, all pages; EC2 errors come back classified. */
export async function describeInstances(
  client: EC2Client,
  input: DescribeInstancesCommandInput,
  signal: AbortSignal,
): Promise<Instance[]> {
  const reservations = await describeReservations(client, input, signal)
  return reservations.flatMap((reservation) => reservation.Instances ?? [])
}

/** The instance id a Machine recorded (providerID, else providerStatus.instanceId). */
export function recordedInstanceId(machine: ActuatorMachine): string | undefined {
  const fromSpec = parseAwsProviderID(machine.spec.providerID)
  if (fromSpec) return fromSpec
  const status = machine.status?.providerStatus as { instanceId?: unknown } | undefined
  return typeof status?.instanceId === 'string' ? status.instanceId : undefined
}

/** The instance with `id` in any state, or undefined when EC2 does not know it (yet). */
export async function describeById(
  client: EC2Client,
  id: string,
  signal: AbortSignal,
): Promise<Instance | undefined> {
  try {
    return (await describeInstances(client, { InstanceIds: [id] }, signal))[0]
  } catch (error) {
    // Unknown ids (and, right after launch, ids EC2 does not show yet) are InvalidInstanceID.NotFound.
    if (error instanceof NotFoundError) return undefined
    throw error
  }
}

/**
 * The `client-token` filter value matching every launch of the Machine with `uid`: each offering's
 * token is `machine-api-<uid>-<hash>` (run-instances-input.ts `clientTokenFor`), and EC2 filter
 * values take `*` wildcards.
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeInstances.html
 */
export function clientTokenPattern(uid: string): string {
  return `machine-api-${uid}-*`
}

/** Instances launched with one of the Machine's ClientTokens, live or (with `going`) going. */
export async function describeByClientToken(
  client: EC2Client,
  uid: string,
  options: { going: boolean; signal: AbortSignal },
): Promise<Instance[]> {
  const states: string[] = [...liveStates, ...(options.going ? goingStates : [])]
  return await describeInstances(
    client,
    {
      Filters: [
        { Name: 'client-token', Values: [clientTokenPattern(uid)] },
        { Name: 'instance-state-name', Values: states },
      ],
    },
    options.signal,
  )
}

/** What a Machine's lookups ask of EC2 (batched over Machines: instance-reads.ts). */
export interface InstanceReads {
  /** The client the reads go through (for the lookups that are not batched). */
  client: EC2Client
  /** The instance with `id` in any state, or undefined when EC2 does not know it (yet). */
  byId(id: string, signal: AbortSignal): Promise<Instance | undefined>
  /** Instances tagged with `uid` that are live or (with `going`) shutting down. */
  byUid(uid: string, options: { going: boolean; signal: AbortSignal }): Promise<Instance[]>
  /** Instances of launch group `group` (by ClientToken), live or (with `going`) shutting down. */
  byGroup(group: string, options: { going: boolean; signal: AbortSignal }): Promise<Instance[]>
}

/** What the lookups saw for one Machine. */
export interface Observed {
  /** The recorded instance id, if any. */
  recordedId: string | undefined
  /** The recorded instance as EC2 describes it (any state); undefined when EC2 does not know it. */
  recorded: Instance | undefined
  /**
   * Instances found by UID tag (live, plus shutting-down when asked), else the instance at the
   * Machine's place in its launch group that no other Machine claimed, or, when asked `byToken`
   * and none of those found one, by ClientToken.
   */
  tagged: Instance[]
}

/**
 * Looks up the Machine's instances (batched with other Machines' lookups: instance-reads.ts): 1
 * call when the recorded instance is live, 2 otherwise, one more for a launch-group member whose
 * instance is not tagged as its own yet, and one more when asked `byToken` and nothing was found. The UID lookup runs even when the id lookup
 * succeeds but the instance is gone, so duplicates from older, crashed attempts are still seen.
 * The ClientToken lookup finds a launch whose tags EC2 does not show yet (a Machine deleted while
 * its create was in flight: issue 42).
 */
export async function observeMachine(
  reads: InstanceReads,
  machine: ActuatorMachine,
  options: { going: boolean; signal: AbortSignal; byToken?: boolean },
): Promise<Observed> {
  const recordedId = recordedInstanceId(machine)
  const recorded = recordedId ? await reads.byId(recordedId, options.signal) : undefined
  const states: readonly string[] = [...liveStates, ...(options.going ? goingStates : [])]
  const recordedLive =
    recorded && (liveStates as readonly string[]).includes(recorded.State?.Name ?? '')
  if (recordedLive && !options.going) return { recordedId, recorded, tagged: [] }
  const uid = machine.metadata.uid
  const byUid = await reads.byUid(uid, options)
  const place = parseLaunchPlace(machine.metadata.annotations?.[ANNOTATIONS.launchGroup])
  const slot =
    byUid.length === 0 && place
      ? memberInstance(await reads.byGroup(place.group, options), place, uid)
      : undefined
  const tagged = slot ? [slot] : byUid
  const found = tagged.length > 0 || (recorded && states.includes(recorded.State?.Name ?? ''))
  if (found || !options.byToken) return { recordedId, recorded, tagged }
  return {
    recordedId,
    recorded,
    tagged: await describeByClientToken(reads.client, machine.metadata.uid, options),
  }
}
