/**
 * @module Which Machine an EC2 instance belongs to, read fresh for every notice (no cache): the
 * ownership tags machine-api put on the instance name the Machine and its UID; an instance EC2 no
 * longer describes (terminated ones vanish after about an hour) or without the tags is looked for
 * among the Machines by providerID. An instance of another Machine with the same name (deleted
 * and created again) is not this one's: the UID tag must match.
 */
import type { EC2Client } from '@aws-sdk/client-ec2'
import { machineApiTypes } from '../../api/resource-types'
import type { Machine } from '../../api/v1beta1/machine'
import type { KubeClient } from '../../kube/kube-client'
import { listPages } from '../../kube/paged-list'
import { describeById } from './lookup'
import { parseAwsProviderID } from './provider-id'
import { tagKeys, tagValue } from './tags'

/** What the look-up needs. */
export interface InstanceLookupDeps {
  kube: KubeClient
  ec2: EC2Client
  /** Only Machines in this namespace ($WATCH_NAMESPACE), when set. */
  namespace?: string | undefined
}

/** The Machine whose instance `instanceId` is, or undefined when none is. */
export async function machineForInstance(
  deps: InstanceLookupDeps,
  instanceId: string,
  signal: AbortSignal,
): Promise<Machine | undefined> {
  const instance = await describeById(deps.ec2, instanceId, signal)
  const name = tagValue(instance?.Tags, tagKeys.machineName)
  const namespace = tagValue(instance?.Tags, tagKeys.machineNamespace)
  const uid = tagValue(instance?.Tags, tagKeys.machineUid)
  if (name && namespace && uid) {
    if (deps.namespace && namespace !== deps.namespace) return undefined
    const machine = await deps.kube.get<Machine>(machineApiTypes.machine, { namespace, name })
    return machine?.metadata.uid === uid ? machine : undefined
  }
  return await machineByProviderID(deps, instanceId)
}

/** Lists Machines page by page until one records `instanceId`. */
async function machineByProviderID(
  deps: InstanceLookupDeps,
  instanceId: string,
): Promise<Machine | undefined> {
  const pages = listPages<Machine>(deps.kube, machineApiTypes.machine, {
    namespace: deps.namespace,
  })
  for await (const page of pages) {
    const found = page.items.find((m) => recordedInstance(m) === instanceId)
    if (found) return found
  }
  return undefined
}

/** The instance a Machine recorded: its providerID, else providerStatus.instanceId (see lookup.ts). */
function recordedInstance(machine: Machine): string | undefined {
  const status = machine.status?.providerStatus as { instanceId?: unknown } | undefined
  const fromStatus = typeof status?.instanceId === 'string' ? status.instanceId : undefined
  return parseAwsProviderID(machine.spec.providerID) ?? fromStatus
}
