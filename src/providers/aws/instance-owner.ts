/**
 * @module Which Machines EC2 instances belong to, read fresh for every batch of notices (no
 * cache): one DescribeInstances for the whole batch (an `instance-id` filter, which leaves unknown
 * ids out instead of failing the call as InstanceIds would), then the ownership tags machine-api
 * put on each instance name its Machine and UID, read with one GET each. The tags are the index:
 * every instance machine-api launches carries them from its RunInstances on, so an instance
 * without them (the rest of the account, which the documented EventBridge rules also match) or
 * one EC2 no longer describes (terminated about an hour ago) costs no Machine list. An instance of
 * another Machine with the same name (deleted and created again) is not this one's: the UID tag
 * must match.
 */
import type { EC2Client, Instance } from '@aws-sdk/client-ec2'
import { machineApiTypes } from '../../api/resource-types'
import type { Machine } from '../../api/v1beta1/machine'
import type { KubeClient } from '../../kube/kube-client'
import type { JsonObject } from '../actuator'
import { parseAwsAccess } from './access'
import { describeReservations } from './lookup'
import { parseAwsProviderID } from './provider-id'
import { tagKeys, tagValue } from './tags'

/** What the look-up needs. */
export interface InstanceLookupDeps {
  kube: KubeClient
  ec2: EC2Client
  /** Only Machines in this namespace ($WATCH_NAMESPACE), when set. */
  namespace?: string | undefined
}

/** The Machine an instance belongs to, and where its instance is, as far as it is known. */
export interface InstanceOwner {
  machine: Machine
  /** The account EC2 says owns the instance (the reservation's OwnerId). */
  account?: string | undefined
  /** The region the Machine's instance was launched in: its recorded access, else its zone's. */
  region?: string | undefined
  /** The instance the Machine records as its own, once it has recorded one. */
  recordedInstanceId?: string | undefined
}

/** EC2 takes up to 200 values in one filter. */
const idsPerCall = 200

/** The owner of each of `instanceIds` (undefined when none is), with one DescribeInstances per 200. */
export async function machinesForInstances(
  deps: InstanceLookupDeps,
  instanceIds: readonly string[],
  signal: AbortSignal,
): Promise<Map<string, InstanceOwner | undefined>> {
  const ids = [...new Set(instanceIds)]
  const instances = new Map<string, { instance: Instance; account?: string | undefined }>()
  for (let i = 0; i < ids.length; i += idsPerCall) {
    const filter = { Name: 'instance-id', Values: ids.slice(i, i + idsPerCall) }
    for (const reservation of await describeReservations(deps.ec2, { Filters: [filter] }, signal)) {
      for (const instance of reservation.Instances ?? []) {
        if (instance.InstanceId)
          instances.set(instance.InstanceId, { instance, account: reservation.OwnerId })
      }
    }
  }
  const found = new Map<string, InstanceOwner | undefined>()
  await Promise.all(
    ids.map(async (id) => {
      const described = instances.get(id)
      const machine = described && (await taggedMachine(deps, described.instance))
      found.set(id, machine ? ownerOf(machine, described.account) : undefined)
    }),
  )
  return found
}

/** The Machine the instance's tags name, or undefined: not ours. */
async function taggedMachine(
  deps: InstanceLookupDeps,
  instance: Instance,
): Promise<Machine | undefined> {
  const name = tagValue(instance.Tags, tagKeys.machineName)
  const namespace = tagValue(instance.Tags, tagKeys.machineNamespace)
  const uid = tagValue(instance.Tags, tagKeys.machineUid)
  if (!name || !namespace || !uid) return undefined
  if (deps.namespace && namespace !== deps.namespace) return undefined
  const machine = await deps.kube.get<Machine>(machineApiTypes.machine, { namespace, name })
  return machine?.metadata.uid === uid ? machine : undefined
}

function ownerOf(machine: Machine, account: string | undefined): InstanceOwner {
  const status = machine.status?.providerStatus as { access?: { facts?: unknown } } | undefined
  const facts = status?.access?.facts
  const recorded =
    typeof facts === 'object' && facts !== null && !Array.isArray(facts)
      ? parseAwsAccess(facts as JsonObject).region
      : undefined
  return {
    machine,
    account,
    region: recorded ?? zoneRegion(machine.spec.providerID),
    recordedInstanceId: recordedInstance(machine),
  }
}

/**
 * The region of the zone an `aws:///<zone>/<id>` providerID names: eu-west-1a, the local zone
 * us-west-2-lax-1a and the Wavelength zone us-east-1-wl1-bos-wlz-1 all start with their region.
 */
function zoneRegion(providerID: string | undefined): string | undefined {
  const zone = /^aws:\/\/\/?([^/]+)\//.exec(providerID ?? '')?.[1]
  return zone ? /^[a-z]{2}(?:-gov)?-[a-z]+-\d+/.exec(zone)?.[0] : undefined
}

/** The instance a Machine recorded: its providerID, else providerStatus.instanceId (see lookup.ts). */
function recordedInstance(machine: Machine): string | undefined {
  const status = machine.status?.providerStatus as { instanceId?: unknown } | undefined
  const fromStatus = typeof status?.instanceId === 'string' ? status.instanceId : undefined
  return parseAwsProviderID(machine.spec.providerID) ?? fromStatus
}
