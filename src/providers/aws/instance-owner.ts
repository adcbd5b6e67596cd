/**
 * @module Which Machines EC2 instances belong to, read fresh for every batch of notices (no
 * cache): one DescribeInstances for the whole batch (an `instance-id` filter, which leaves unknown
 * ids out instead of failing the call as InstanceIds would), then the ownership tags machine-api
 * put on each instance name its Machine and UID; an instance EC2 no longer describes (terminated
 * ones vanish after about an hour) or without the tags is looked for among the Machines by
 * providerID, in one paged list for the batch. An instance of another Machine with the same name
 * (deleted and created again) is not this one's: the UID tag must match.
 */
import type { EC2Client, Instance } from '@aws-sdk/client-ec2'
import { machineApiTypes } from '../../api/resource-types'
import type { Machine } from '../../api/v1beta1/machine'
import type { KubeClient } from '../../kube/kube-client'
import { listPages } from '../../kube/paged-list'
import { describeInstances } from './lookup'
import { parseAwsProviderID } from './provider-id'
import { tagKeys, tagValue } from './tags'

/** What the look-up needs. */
export interface InstanceLookupDeps {
  kube: KubeClient
  ec2: EC2Client
  /** Only Machines in this namespace ($WATCH_NAMESPACE), when set. */
  namespace?: string | undefined
}

/** EC2 takes up to 200 values in one filter. */
const idsPerCall = 200

/** The Machine of each of `instanceIds` (undefined when none is), with one DescribeInstances per 200. */
export async function machinesForInstances(
  deps: InstanceLookupDeps,
  instanceIds: readonly string[],
  signal: AbortSignal,
): Promise<Map<string, Machine | undefined>> {
  const ids = [...new Set(instanceIds)]
  const instances = new Map<string, Instance>()
  for (let i = 0; i < ids.length; i += idsPerCall) {
    const filter = { Name: 'instance-id', Values: ids.slice(i, i + idsPerCall) }
    for (const instance of await describeInstances(deps.ec2, { Filters: [filter] }, signal)) {
      if (instance.InstanceId) instances.set(instance.InstanceId, instance)
    }
  }
  const found = new Map<string, Machine | undefined>()
  const untagged: string[] = []
  await Promise.all(
    ids.map(async (id) => {
      const owner = await taggedOwner(deps, instances.get(id))
      if (owner === 'untagged') untagged.push(id)
      else found.set(id, owner)
    }),
  )
  if (untagged.length > 0) {
    const byProviderID = await machinesByProviderID(deps, new Set(untagged))
    for (const id of untagged) found.set(id, byProviderID.get(id))
  }
  return found
}

/** The Machine the instance's tags name (undefined: not ours), or `untagged`. */
async function taggedOwner(
  deps: InstanceLookupDeps,
  instance: Instance | undefined,
): Promise<Machine | undefined | 'untagged'> {
  const name = tagValue(instance?.Tags, tagKeys.machineName)
  const namespace = tagValue(instance?.Tags, tagKeys.machineNamespace)
  const uid = tagValue(instance?.Tags, tagKeys.machineUid)
  if (!name || !namespace || !uid) return 'untagged'
  if (deps.namespace && namespace !== deps.namespace) return undefined
  const machine = await deps.kube.get<Machine>(machineApiTypes.machine, { namespace, name })
  return machine?.metadata.uid === uid ? machine : undefined
}

/** Lists Machines page by page until every id in `wanted` is found or the list ends. */
async function machinesByProviderID(
  deps: InstanceLookupDeps,
  wanted: ReadonlySet<string>,
): Promise<Map<string, Machine>> {
  const found = new Map<string, Machine>()
  const pages = listPages<Machine>(deps.kube, machineApiTypes.machine, {
    namespace: deps.namespace,
  })
  for await (const page of pages) {
    for (const m of page.items) {
      const id = recordedInstance(m)
      if (id && wanted.has(id) && !found.has(id)) found.set(id, m)
    }
    if (found.size === wanted.size) break
  }
  return found
}

/** The instance a Machine recorded: its providerID, else providerStatus.instanceId (see lookup.ts). */
function recordedInstance(machine: Machine): string | undefined {
  const status = machine.status?.providerStatus as { instanceId?: unknown } | undefined
  const fromStatus = typeof status?.instanceId === 'string' ? status.instanceId : undefined
  return parseAwsProviderID(machine.spec.providerID) ?? fromStatus
}
