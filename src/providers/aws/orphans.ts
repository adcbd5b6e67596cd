/**
 * @module The orphan sweep: instances carrying this deployment's ownership tag whose Machine no
 * longer exists (deleted while a create was in flight, a finalizer removed by hand...). They are
 * reported, and terminated after a grace period only when the operator enabled it.
 */
import { type EC2Client, type Instance, TerminateInstancesCommand } from '@aws-sdk/client-ec2'
import type { Orphan } from '../orphans'
import { classifyAwsError } from './errors'
import { liveStates } from './instance'
import { describeInstances } from './lookup'
import { tagKeys, tagValue } from './tags'

/** How the sweep decides. */
export interface OrphanPolicy {
  now: Date
  /** Instances younger than this are never orphans: their Machine may not be listed yet. */
  graceMs: number
  /** Report-only when false (the default). */
  terminate: boolean
}

/**
 * Pure: the orphans among `instances` given the UIDs of every existing Machine. An instance
 * without a UID tag carries our owner tag by hand; it is reported but never terminated.
 */
export function findOrphans(
  instances: readonly Instance[],
  machineUids: ReadonlySet<string>,
  policy: OrphanPolicy,
): Orphan[] {
  const orphans: Orphan[] = []
  for (const instance of instances) {
    const uid = tagValue(instance.Tags, tagKeys.machineUid)
    if (uid !== undefined && machineUids.has(uid)) continue
    const launched = instance.LaunchTime?.getTime()
    if (launched === undefined || policy.now.getTime() - launched < policy.graceMs) continue
    orphans.push({
      instanceId: instance.InstanceId ?? '',
      machineUid: uid,
      machineName: tagValue(instance.Tags, tagKeys.machineName),
      machineNamespace: tagValue(instance.Tags, tagKeys.machineNamespace),
      launchTime: instance.LaunchTime?.toISOString(),
      terminate: policy.terminate && uid !== undefined,
    })
  }
  return orphans
}

/** Live instances tagged with `ownerId`, all pages. */
export async function listOwnedInstances(
  client: EC2Client,
  ownerId: string,
  signal: AbortSignal,
): Promise<Instance[]> {
  const filters = [
    { Name: `tag:${tagKeys.owner}`, Values: [ownerId] },
    { Name: 'instance-state-name', Values: [...liveStates] },
  ]
  return await describeInstances(client, { Filters: filters, MaxResults: 500 }, signal)
}

/** What one sweep needs from its caller. */
export interface SweepInput extends Omit<OrphanPolicy, 'now'> {
  client: EC2Client
  ownerId: string
  /**
   * Every Machine UID in the cluster. Called after instances are listed, so a Machine created
   * meanwhile is seen; it must throw rather than return a partial set (an unreachable apiserver
   * must never make healthy instances look orphaned).
   */
  machineUids: () => Promise<ReadonlySet<string>>
  now: () => Date
  signal: AbortSignal
}

/** Lists, decides and (when enabled) terminates; returns every orphan found. */
export async function sweepOrphans(input: SweepInput): Promise<Orphan[]> {
  const instances = await listOwnedInstances(input.client, input.ownerId, input.signal)
  if (instances.length === 0) return []
  const uids = await input.machineUids()
  const orphans = findOrphans(instances, uids, {
    now: input.now(),
    graceMs: input.graceMs,
    terminate: input.terminate,
  })
  const doomed = orphans.filter((o) => o.terminate).map((o) => o.instanceId)
  if (doomed.length > 0) {
    await input.client
      .send(new TerminateInstancesCommand({ InstanceIds: doomed }), { abortSignal: input.signal })
      .catch((error: unknown) => {
        throw classifyAwsError(error, 'TerminateInstances')
      })
  }
  return orphans
}
