/**
 * @module Counts what went wrong after a scenario converged, from the outside: EC2 (moto, not
 * through the fault proxy) and the apiserver. A Machine with two live instances is a duplicate;
 * a live instance or a simulated Node that no Machine owns is an orphan; a MachineSet with a
 * different number of Machines than it wants, or a Machine not Running with a Node, is stuck.
 */
import { DescribeInstancesCommand, type EC2Client, type Instance } from '@aws-sdk/client-ec2'
import { LABELS } from '../../../src/api/group'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { tagKeys } from '../../../src/providers/aws/tags'
import { chaosOwnerId } from './aws-world'

type Machine = KubeObject & {
  spec?: { providerID?: string }
  status?: { phase?: string; nodeRef?: { name?: string } }
}
type MachineSet = KubeObject & { spec?: { replicas?: number } }

export interface FleetAudit {
  machines: number
  liveInstances: number
  /** Machines (by UID tag) with more than one live instance: the extra instances. */
  duplicateInstances: number
  /** Live instances whose Machine UID matches no Machine of the namespace. */
  orphanInstances: number
  /** Simulated Nodes whose providerID no Machine has. */
  orphanNodes: number
  /** Machines not Running with a nodeRef, or being deleted. */
  notRunning: string[]
  /** MachineSets whose Machine count differs from spec.replicas. */
  wrongCount: string[]
}

/** Live (not terminated) instances of the scenario's owner tag. */
export async function liveInstances(ec2: EC2Client): Promise<Instance[]> {
  const out = await ec2.send(
    new DescribeInstancesCommand({
      Filters: [
        { Name: `tag:${tagKeys.owner}`, Values: [chaosOwnerId] },
        { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] },
      ],
    }),
  )
  return (out.Reservations ?? []).flatMap((r) => r.Instances ?? [])
}

function tag(instance: Instance, key: string): string | undefined {
  return instance.Tags?.find((t) => t.Key === key)?.Value
}

export async function auditFleet(options: {
  kube: KubeClient
  ec2: EC2Client
  namespace: string
}): Promise<FleetAudit> {
  const { kube, namespace } = options
  const machines = (await kube.list<Machine>(machineApiTypes.machine, { namespace })).items
  const sets = (await kube.list<MachineSet>(machineApiTypes.machineSet, { namespace })).items
  const instances = (await liveInstances(options.ec2)).filter(
    (i) => tag(i, tagKeys.machineNamespace) === namespace,
  )
  const nodes = (
    await kube.list<KubeObject & { spec?: { providerID?: string } }>(coreTypes.node, {
      labelSelector: LABELS.simulatedBy,
    })
  ).items

  const uids = new Set(machines.map((m) => m.metadata?.uid))
  const perUid = new Map<string, number>()
  for (const i of instances) {
    const uid = tag(i, tagKeys.machineUid) ?? ''
    perUid.set(uid, (perUid.get(uid) ?? 0) + 1)
  }
  const providerIDs = new Set(machines.map((m) => m.spec?.providerID).filter(Boolean))
  const liveIds = new Set(instances.map((i) => i.InstanceId))
  const machinesOf = (set: MachineSet) =>
    machines.filter((m) =>
      m.metadata?.ownerReferences?.some((o) => o.uid === set.metadata?.uid && o.controller),
    ).length

  return {
    machines: machines.length,
    liveInstances: instances.length,
    duplicateInstances: [...perUid.entries()]
      .filter(([uid]) => uids.has(uid))
      .reduce((sum, [, n]) => sum + (n - 1), 0),
    orphanInstances: instances.filter((i) => !uids.has(tag(i, tagKeys.machineUid))).length,
    // A Node of an instance still shutting down is not an orphan yet; only Nodes of live
    // instances no Machine claims, or of instances that are gone, count.
    orphanNodes: nodes.filter((n) => {
      const providerID = n.spec?.providerID ?? ''
      const instanceId = providerID.split('/').pop()
      return !providerIDs.has(providerID) && !liveIds.has(instanceId)
    }).length,
    notRunning: machines
      .filter(
        (m) =>
          m.metadata?.deletionTimestamp !== undefined ||
          m.status?.phase !== 'Running' ||
          !m.status?.nodeRef?.name,
      )
      .map((m) => `${m.metadata?.name} (${m.status?.phase ?? 'no phase'})`),
    wrongCount: sets
      .filter((s) => machinesOf(s) !== (s.spec?.replicas ?? 1))
      .map((s) => `${s.metadata?.name}: ${machinesOf(s)}/${s.spec?.replicas ?? 1}`),
  }
}
