/**
 * @module What an adoption must leave, read from the apiserver and moto: every source instance
 * held by exactly one owner (one machine-api Machine whose providerID names it, tagged with that
 * Machine's uid, and no source Machine left naming it), still running, its Node and the Pod on
 * it the same objects as before.
 */
import { DescribeInstancesCommand, type EC2Client } from '@aws-sdk/client-ec2'
import { sourceTypes } from '../../../src/adopt/source-types'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { parseAwsProviderID } from '../../../src/providers/aws/provider-id'
import { tagKeys } from '../../../src/providers/aws/tags'

/** A source fleet as created, before anything was adopted. */
export interface FleetBefore {
  instanceIds: readonly string[]
  nodes: ReadonlyArray<{ name: string; uid: string }>
  pods: ReadonlyArray<{ name: string; uid: string }>
}

/** What is wrong, each entry naming the instance, Node, Pod or Machine. */
export interface AdoptionAudit {
  /** Instances two controllers hold: two Machines, or a Machine and a source Machine. */
  twoOwners: string[]
  /** Instances no machine-api Machine holds, or whose uid tag names another than the one that does. */
  noOwner: string[]
  /** Instances no longer running. */
  notRunning: string[]
  nodesLost: string[]
  podsLost: string[]
  /** Machine-api Machines of the fleets that are not Running. */
  machinesNotRunning: string[]
}

type Spec = { spec?: { providerID?: string } }

/** Instance id -> the objects of `items` whose spec.providerID names it. */
function byInstance<T extends KubeObject & Spec>(items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const item of items) {
    const id = parseAwsProviderID(item.spec?.providerID)
    if (id) out.set(id, [...(out.get(id) ?? []), item])
  }
  return out
}

/** Who holds one instance, as the apiserver and EC2 tell. */
export interface InstanceHolders {
  /** machine-api Machines whose providerID names it. */
  machines: KubeObject[]
  /** Cluster API or OpenShift Machines whose providerID names it. */
  sources: number
  /** Its machine-api uid tag, if any. */
  uidTag?: string | undefined
  state?: string | undefined
}

/** The holders of each of `ids`. */
export async function instanceHolders(
  kube: KubeClient,
  ec2: EC2Client,
  namespace: string,
  ids: readonly string[],
): Promise<Map<string, InstanceHolders>> {
  const list = async (type: typeof machineApiTypes.machine) =>
    (await kube.list<KubeObject & Spec>(type, { namespace })).items
  const machines = byInstance(await list(machineApiTypes.machine))
  const sources = byInstance([
    ...(await list(sourceTypes.capiMachine)),
    ...(await list(sourceTypes.openshiftMachine)),
  ])
  const described = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [...ids] }))
  const instances = new Map(
    (described.Reservations ?? [])
      .flatMap((r) => r.Instances ?? [])
      .map((i) => [i.InstanceId ?? '', i]),
  )
  return new Map(
    ids.map((id) => {
      const instance = instances.get(id)
      return [
        id,
        {
          machines: machines.get(id) ?? [],
          sources: sources.get(id)?.length ?? 0,
          uidTag: instance?.Tags?.find((t) => t.Key === tagKeys.machineUid)?.Value,
          state: instance?.State?.Name,
        },
      ]
    }),
  )
}

export async function auditAdoption(
  kube: KubeClient,
  ec2: EC2Client,
  namespace: string,
  fleets: readonly FleetBefore[],
): Promise<AdoptionAudit> {
  const ids = fleets.flatMap((f) => f.instanceIds)
  const holders = await instanceHolders(kube, ec2, namespace, ids)
  const audit: AdoptionAudit = {
    twoOwners: [],
    noOwner: [],
    notRunning: [],
    nodesLost: [],
    podsLost: [],
    machinesNotRunning: [],
  }
  for (const [id, { machines, sources, uidTag, state }] of holders) {
    if (machines.length + sources > 1) audit.twoOwners.push(id)
    else if (machines.length === 0 || uidTag !== machines[0]?.metadata?.uid) audit.noOwner.push(id)
    if (state !== 'running') audit.notRunning.push(id)
    for (const m of machines) {
      const phase = (m as { status?: { phase?: string } }).status?.phase
      if (phase !== 'Running') audit.machinesNotRunning.push(`${m.metadata?.name} (${phase})`)
    }
  }
  for (const fleet of fleets) {
    for (const node of fleet.nodes) {
      const now = await kube.get(coreTypes.node, { name: node.name })
      if (now?.metadata?.uid !== node.uid || now.metadata?.deletionTimestamp) {
        audit.nodesLost.push(node.name)
      }
    }
    for (const pod of fleet.pods) {
      const now = await kube.get(coreTypes.pod, { namespace, name: pod.name })
      if (now?.metadata?.uid !== pod.uid || now.metadata?.deletionTimestamp) {
        audit.podsLost.push(pod.name)
      }
    }
  }
  return audit
}
