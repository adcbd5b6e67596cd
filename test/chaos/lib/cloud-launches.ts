/**
 * @module Every instance ever launched for a namespace (terminated ones too, which moto keeps):
 * two instances with the same Machine UID tag mean a Machine was provisioned twice, even if one
 * of them has since been terminated.
 */
import { DescribeInstancesCommand, type EC2Client } from '@aws-sdk/client-ec2'
import { tagKeys } from '../../../src/providers/aws/tags'
import { chaosOwnerId } from './aws-world'

/** Instances per Machine UID, in any state. */
export async function launchesPerMachine(
  ec2: EC2Client,
  namespace: string,
): Promise<Map<string, number>> {
  const out = await ec2.send(
    new DescribeInstancesCommand({
      Filters: [
        { Name: `tag:${tagKeys.owner}`, Values: [chaosOwnerId] },
        { Name: `tag:${tagKeys.machineNamespace}`, Values: [namespace] },
      ],
    }),
  )
  const perUid = new Map<string, number>()
  for (const instance of (out.Reservations ?? []).flatMap((r) => r.Instances ?? [])) {
    const uid = instance.Tags?.find((t) => t.Key === tagKeys.machineUid)?.Value ?? ''
    perUid.set(uid, (perUid.get(uid) ?? 0) + 1)
  }
  return perUid
}

/** Extra launches: instances beyond the first per Machine UID. */
export function extraLaunches(perUid: Map<string, number>): number {
  return [...perUid.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0)
}
