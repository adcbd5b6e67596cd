/**
 * @module EC2's instance status checks for many Machines at once: targets grouped by the client
 * their region and credentials select, then one DescribeInstanceStatus per group and per 100
 * instances (EC2's bound on explicit ids). Without IncludeAllInstances EC2 answers for running
 * instances only, which are the only ones it checks.
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeInstanceStatus.html
 */
import {
  DescribeInstanceStatusCommand,
  type EC2Client,
  type InstanceStatus as Ec2InstanceStatus,
} from '@aws-sdk/client-ec2'
import type { StatusCheckName } from '../../api/instance-status-checks'
import type { SecretReader } from '../actuator'
import { NotFoundError } from '../errors'
import type {
  InstanceStatus,
  InstanceStatusReport,
  InstanceStatusRequest,
  InstanceStatusTarget,
} from '../instance-status'
import { parseProviderSpec } from '../spec'
import type { AwsCredentials, ClientPool } from './client-pool'
import { classifyAwsError } from './errors'
import { parseAwsProviderID } from './provider-id'
import { readCredentials } from './secrets'
import { awsProviderSpecSchema } from './spec'

/** EC2's bound on instance ids in one DescribeInstanceStatus call. */
export const maxIdsPerCall = 100

/**
 * Pure: EC2's status of one instance as a verdict: failed when either check is `impaired`, passed
 * when both are `ok`, else none (initializing, insufficient-data, not-applicable).
 */
export function statusVerdict(
  status: Ec2InstanceStatus,
  providerID: string,
): InstanceStatus | undefined {
  const checks: Array<[StatusCheckName, Ec2InstanceStatus['SystemStatus']]> = [
    ['system', status.SystemStatus],
    ['instance', status.InstanceStatus],
  ]
  const failing = checks.filter(([, summary]) => summary?.Status === 'impaired')
  if (failing.length === 0) {
    return checks.every(([, summary]) => summary?.Status === 'ok')
      ? { providerID, verdict: 'passed' }
      : undefined
  }
  const since = failing
    .flatMap(([, summary]) => summary?.Details ?? [])
    .map((detail) => detail.ImpairedSince?.getTime())
    .filter((ms): ms is number => ms !== undefined && !Number.isNaN(ms))
  return {
    providerID,
    verdict: 'failed',
    failed: failing.map(([name]) => name),
    since: since.length > 0 ? new Date(Math.min(...since)).toISOString() : undefined,
  }
}

/**
 * The statuses of `ids` (at most 100): one call. EC2 refuses the whole call when one id is unknown
 * (an instance gone for an hour), so such a call is split in halves until the unknown id is
 * alone and left out: one stale Machine never hides the others' failures.
 */
async function describeStatuses(
  client: EC2Client,
  ids: readonly string[],
  signal: AbortSignal,
): Promise<Ec2InstanceStatus[]> {
  try {
    const out = await client
      .send(new DescribeInstanceStatusCommand({ InstanceIds: [...ids] }), { abortSignal: signal })
      .catch((error: unknown) => {
        throw classifyAwsError(error, 'DescribeInstanceStatus')
      })
    return out.InstanceStatuses ?? []
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error
    if (ids.length === 1) return []
    const half = Math.ceil(ids.length / 2)
    return [
      ...(await describeStatuses(client, ids.slice(0, half), signal)),
      ...(await describeStatuses(client, ids.slice(half), signal)),
    ]
  }
}

type Group = { client: EC2Client; providerIDs: Map<string, string> }

/** Groups the targets by client (region + credentials); a target that cannot be placed is an error. */
async function groupTargets(
  clients: ClientPool,
  targets: readonly InstanceStatusTarget[],
  errors: InstanceStatusReport['errors'],
): Promise<Group[]> {
  const groups = new Map<EC2Client, Group>()
  // One credentials read per Secret per namespace, not per Machine.
  const credentials = new Map<SecretReader, Map<string, Promise<AwsCredentials | undefined>>>()
  for (const target of targets) {
    const instanceId = parseAwsProviderID(target.providerID)
    if (!instanceId) continue
    try {
      const spec = parseProviderSpec(awsProviderSpecSchema(), target.providerSpec)
      const refName = (spec.credentialsSecret ?? target.credentialsSecretRef)?.name ?? ''
      const byName = credentials.get(target.secrets) ?? new Map()
      credentials.set(target.secrets, byName)
      let read = byName.get(refName)
      if (!read) {
        read = readCredentials(target, spec)
        byName.set(refName, read)
      }
      const client = clients.get(spec.region, await read)
      const group = groups.get(client) ?? { client, providerIDs: new Map() }
      groups.set(client, group)
      group.providerIDs.set(instanceId, target.providerID)
    } catch (error) {
      // One unreadable Secret fails every target that names it with the same error: one entry.
      const same = errors.find((e) => e.error === error)
      if (same) same.targets++
      else errors.push({ targets: 1, error })
    }
  }
  return [...groups.values()]
}

/** The `aws` provider's `instanceStatus` capability; see the module comment. */
export async function describeInstanceStatuses(
  clients: ClientPool,
  request: InstanceStatusRequest,
): Promise<InstanceStatusReport> {
  const report: InstanceStatusReport = { statuses: [], errors: [] }
  for (const { client, providerIDs } of await groupTargets(
    clients,
    request.targets,
    report.errors,
  )) {
    const ids = [...providerIDs.keys()]
    for (let start = 0; start < ids.length; start += maxIdsPerCall) {
      const chunk = ids.slice(start, start + maxIdsPerCall)
      try {
        for (const status of await describeStatuses(client, chunk, request.signal)) {
          const providerID = providerIDs.get(status.InstanceId ?? '')
          const verdict = providerID && statusVerdict(status, providerID)
          if (verdict) report.statuses.push(verdict)
        }
      } catch (error) {
        report.errors.push({ targets: chunk.length, error })
      }
    }
  }
  return report
}
