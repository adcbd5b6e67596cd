/**
 * @module The instance reads of every Machine on one EC2 client, batched: a Machine's lookup by
 * recorded id or by UID tag joins the other Machines' lookups asked at the same time, up to 200
 * values a DescribeInstances filter. Filters, not InstanceIds: one unknown id (a launch EC2 does
 * not show yet) fails a whole InstanceIds call with InvalidInstanceID.NotFound, while a filter
 * just leaves it out.
 */
import type { EC2Client, Instance } from '@aws-sdk/client-ec2'
import { type BatchLoader, createBatchLoader } from '../../batch-loader'
import { groupTokenPattern, isOfGroup } from './group-launch'
import { goingStates, liveStates } from './instance'
import { describeById, describeInstances, type InstanceReads } from './lookup'
import { isInstanceId } from './provider-id'
import { tagKeys } from './tags'

/** Values in one DescribeInstances filter (EC2 documents up to 200 a filter for its Describe calls). */
export const valuesPerFilter = 200

/**
 * Calls out at once per lookup kind and client. Two keep a quiet Machine's read unqueued while
 * a sweep's reads pile up behind them into large calls.
 */
const callsInFlight = 2

const callTimeoutMs = 30_000

function loader<V>(run: (keys: string[], signal: AbortSignal) => Promise<Map<string, V>>) {
  return createBatchLoader<string, V>({
    maxKeys: valuesPerFilter,
    maxInFlight: callsInFlight,
    callTimeoutMs,
    run,
  })
}

/** Pure: `instances` grouped by the value of tag `key`. */
export function groupByTag(instances: readonly Instance[], key: string): Map<string, Instance[]> {
  const groups = new Map<string, Instance[]>()
  for (const instance of instances) {
    const value = instance.Tags?.find((tag) => tag.Key === key)?.Value
    if (value === undefined) continue
    groups.set(value, [...(groups.get(value) ?? []), instance])
  }
  return groups
}

/** Creates the batched reads of one client. */
export function createInstanceReads(client: EC2Client): InstanceReads {
  const ids = loader<Instance>(async (keys, signal) => {
    const found = await describeInstances(
      client,
      { Filters: [{ Name: 'instance-id', Values: keys }] },
      signal,
    )
    return new Map(found.map((instance) => [instance.InstanceId ?? '', instance]))
  })
  const byUidIn = (states: readonly string[]): BatchLoader<string, Instance[]> =>
    loader(async (uids, signal) => {
      const found = await describeInstances(
        client,
        {
          Filters: [
            { Name: `tag:${tagKeys.machineUid}`, Values: uids },
            { Name: 'instance-state-name', Values: [...states] },
          ],
        },
        signal,
      )
      return groupByTag(found, tagKeys.machineUid)
    })
  const live = byUidIn(liveStates)
  const liveOrGoing = byUidIn([...liveStates, ...goingStates])
  const groups = loader(async (ids, signal) => {
    const found = await describeInstances(
      client,
      { Filters: [{ Name: 'client-token', Values: ids.map(groupTokenPattern) }] },
      signal,
    )
    return new Map(ids.map((id) => [id, found.filter((i) => isOfGroup(i, id))]))
  })

  return {
    client,
    async byId(id, signal) {
      // A malformed id would fail the whole call for every Machine in it.
      if (!isInstanceId(id)) return await describeById(client, id, signal)
      return await ids.load(id, signal)
    },
    async byUid(uid, options) {
      const uids = options.going ? liveOrGoing : live
      return (await uids.load(uid, options.signal)) ?? []
    },
    async byGroup(group, options) {
      const states: readonly string[] = [...liveStates, ...(options.going ? goingStates : [])]
      const all = (await groups.load(group, options.signal)) ?? []
      return all.filter((i) => states.includes(i.State?.Name ?? ''))
    },
  }
}
