/**
 * @module The orphan sweep: instances carrying this installation's ownership tag whose Machine no
 * longer exists (deleted while a create was in flight, a finalizer removed by hand...). They are
 * reported, and terminated after a grace period only when the operator enabled it, and only when
 * their owner tag is this installation's own: another installation in the same AWS account has
 * another owner (docs/operations.md, "Orphaned instances").
 *
 * Upgrade: releases before the per-installation owner tagged every instance `machine-api`
 * (`legacyOwnerIds`). The sweep lists those too. One whose Machine exists here is this
 * installation's: it is re-tagged with the owner (CreateTags), so it is swept like any other
 * once it is orphaned. One without a Machine here may be another installation's, still on the
 * old default: it is reported, never terminated.
 */
import {
  CreateTagsCommand,
  type EC2Client,
  type Instance,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2'
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
  /** This installation's owner tag value: only instances carrying it are ever terminated. */
  ownerId: string
}

/**
 * Pure: the orphans among `instances` given the UIDs of every existing Machine. An instance
 * without a UID tag carries our owner tag by hand, and one with another owner tag (the legacy
 * default, or anything a filter let through) may not be ours: both are reported, never terminated.
 * A launch group's instance that no Machine claimed is terminated even when the sweep only
 * reports: no Machine will ever claim it after the grace, and nothing but machine-api made it.
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
    const owner = tagValue(instance.Tags, tagKeys.owner)
    // A launch group's instance no member claimed within the grace: machine-api launched it for
    // a place that went away (its Machine deleted, or launched alone after the group missed).
    const unclaimed =
      uid === undefined && tagValue(instance.Tags, tagKeys.launchGroup) !== undefined
    const kept =
      uid === undefined && !unclaimed ? 'it has no Machine UID tag' : ownerProblem(owner, policy)
    orphans.push({
      instanceId: instance.InstanceId ?? '',
      machineUid: uid,
      machineName: tagValue(instance.Tags, tagKeys.machineName),
      machineNamespace: tagValue(instance.Tags, tagKeys.machineNamespace),
      launchTime: instance.LaunchTime?.toISOString(),
      terminate: (policy.terminate || unclaimed) && kept === undefined,
      ...(kept ? { keptBecause: kept } : {}),
    })
  }
  return orphans
}

function ownerProblem(owner: string | undefined, policy: OrphanPolicy): string | undefined {
  if (owner === policy.ownerId) return undefined
  return `its owner tag is ${owner ?? 'missing'}, not this installation's ${policy.ownerId}`
}

/** Live instances tagged with one of `ownerIds`, all pages. */
export async function listOwnedInstances(
  client: EC2Client,
  ownerIds: readonly string[],
  signal: AbortSignal,
): Promise<Instance[]> {
  const filters = [
    { Name: `tag:${tagKeys.owner}`, Values: [...new Set(ownerIds)] },
    { Name: 'instance-state-name', Values: [...liveStates] },
  ]
  return await describeInstances(client, { Filters: filters, MaxResults: 500 }, signal)
}

/** What one sweep needs from its caller. */
export interface SweepInput extends Omit<OrphanPolicy, 'now' | 'ownerId'> {
  client: EC2Client
  ownerId: string
  /** Owner values of earlier releases (`machine-api`): re-tagged when theirs, else reported. */
  legacyOwnerIds?: readonly string[]
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
  const owners = [input.ownerId, ...(input.legacyOwnerIds ?? [])]
  const instances = await listOwnedInstances(input.client, owners, input.signal)
  if (instances.length === 0) return []
  const uids = await input.machineUids()
  await adoptLegacy(input, legacyOfOurs(instances, uids, input.ownerId))
  const orphans = findOrphans(instances, uids, {
    now: input.now(),
    graceMs: input.graceMs,
    terminate: input.terminate,
    ownerId: input.ownerId,
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

/** Instances with another owner tag whose Machine exists here: this installation's, tagged before. */
export function legacyOfOurs(
  instances: readonly Instance[],
  machineUids: ReadonlySet<string>,
  ownerId: string,
): string[] {
  return instances
    .filter((i) => tagValue(i.Tags, tagKeys.owner) !== ownerId)
    .filter((i) => machineUids.has(tagValue(i.Tags, tagKeys.machineUid) ?? ''))
    .map((i) => i.InstanceId ?? '')
}

/** Re-tags `ids` with this installation's owner (1,000 resources per CreateTags at most). */
async function adoptLegacy(input: SweepInput, ids: string[]): Promise<void> {
  for (let at = 0; at < ids.length; at += 1000) {
    await input.client
      .send(
        new CreateTagsCommand({
          Resources: ids.slice(at, at + 1000),
          Tags: [{ Key: tagKeys.owner, Value: input.ownerId }],
        }),
        { abortSignal: input.signal },
      )
      .catch((error: unknown) => {
        throw classifyAwsError(error, 'CreateTags')
      })
  }
}
