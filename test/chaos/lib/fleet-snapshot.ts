/**
 * @module One look at a scenario's fleet from the outside, EC2 (moto, never through the fault
 * proxy) and the apiserver: what is orphaned, doubled or not converged right now. The run audit
 * (audit.ts) combines these looks with what happened meanwhile; convergence waits use them alone.
 */
import {
  DescribeInstancesCommand,
  type EC2Client,
  type Filter,
  type Instance,
} from '@aws-sdk/client-ec2'
import { ANNOTATIONS, LABELS } from '../../../src/api/group'
import { parseLaunchPlace } from '../../../src/api/launch-group'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { tagKeys } from '../../../src/providers/aws/tags'
import { launchedFor } from './audit-counts'
import { chaosOwnerId } from './aws-world'

export type SnapshotMachine = KubeObject & {
  spec?: { providerID?: string }
  status?: {
    phase?: string
    nodeRef?: { name?: string }
    conditions?: { type: string; status: string; reason?: string }[]
  }
}
type MachineSet = KubeObject & { spec?: { replicas?: number } }

/** States of an instance that still runs or can run again (not shutting down or terminated). */
const liveStates = new Set(['pending', 'running', 'stopping', 'stopped'])

export interface FleetAudit {
  machines: number
  liveInstances: number
  /** Extra live instances of Machines that have more than one. */
  duplicateInstances: number
  /** Live instances whose Machine UID tag matches no Machine of the namespace. */
  orphanInstances: number
  orphanInstanceIds: string[]
  /**
   * Simulated Nodes of the namespace's instances that no Machine's providerID claims: Nodes of
   * live instances no Machine claims and Nodes of terminated instances. A Node whose instance is
   * shutting down is not counted yet (the simulator removes it on its next pass).
   */
  orphanNodes: number
  orphanNodeNames: string[]
  /** Machines (not being deleted) with a providerID whose instance is not live. */
  machinesWithoutInstance: string[]
  /** Machines not Running with a nodeRef, or being deleted. */
  notRunning: string[]
  /** MachineSets whose Machine count differs from spec.replicas. */
  wrongCount: string[]
}

function isLive(instance: Instance): boolean {
  return liveStates.has(instance.State?.Name ?? '')
}

/** Live (not terminated, not shutting down) instances of the scenario's owner tag. */
export async function liveInstances(ec2: EC2Client): Promise<Instance[]> {
  return await describeAll(ec2, [
    { Name: `tag:${tagKeys.owner}`, Values: [chaosOwnerId] },
    { Name: 'instance-state-name', Values: [...liveStates] },
  ])
}

/**
 * Every page: moto answers DescribeInstances 100 instances at a time, as EC2 may, so a fleet of
 * more (100 Machines and their replacements) is read past the first page.
 */
async function describeAll(ec2: EC2Client, filters: Filter[]): Promise<Instance[]> {
  const instances: Instance[] = []
  let token: string | undefined
  do {
    const out = await ec2.send(new DescribeInstancesCommand({ Filters: filters, NextToken: token }))
    instances.push(...(out.Reservations ?? []).flatMap((r) => r.Instances ?? []))
    token = out.NextToken
  } while (token)
  return instances
}

/**
 * Every instance launched for the namespace's Machines, in any state: moto 5.2.5 keeps terminated
 * instances in DescribeInstances for the life of the server (real EC2 for about an hour).
 */
export async function namespaceInstances(ec2: EC2Client, namespace: string): Promise<Instance[]> {
  return await describeAll(ec2, [
    { Name: `tag:${tagKeys.owner}`, Values: [chaosOwnerId] },
    { Name: `tag:${tagKeys.machineNamespace}`, Values: [namespace] },
  ])
}

/** The instance id at the end of a providerID (`aws:///zone/i-...`). */
function instanceIdOf(providerID: string | undefined): string {
  return providerID?.split('/').pop() ?? ''
}

export interface FleetOptions {
  kube: KubeClient
  ec2: EC2Client
  namespace: string
}

export async function auditFleet(options: FleetOptions): Promise<FleetAudit> {
  return (await snapshotFleet(options)).audit
}

/** The audit, and the Machines it listed (the run audit records them in its ledger). */
export async function snapshotFleet(
  options: FleetOptions,
): Promise<{ audit: FleetAudit; machines: SnapshotMachine[] }> {
  const { kube, namespace } = options
  const machines = (await kube.list<SnapshotMachine>(machineApiTypes.machine, { namespace })).items
  const sets = (await kube.list<MachineSet>(machineApiTypes.machineSet, { namespace })).items
  const all = await namespaceInstances(options.ec2, namespace)
  const live = all.filter(isLive)
  const nodes = (
    await kube.list<KubeObject & { spec?: { providerID?: string } }>(coreTypes.node, {
      labelSelector: LABELS.simulatedBy,
    })
  ).items

  const uids = new Set(machines.map((m) => m.metadata?.uid))
  const placeOwners = new Map(
    machines.flatMap((m) => {
      const place = parseLaunchPlace(m.metadata?.annotations?.[ANNOTATIONS.launchGroup])
      return place ? [[`${place.group}/${place.index}`, m.metadata?.uid ?? ''] as const] : []
    }),
  )
  const perUid = new Map<string, number>()
  for (const i of live) {
    const uid = launchedFor(i, placeOwners)
    perUid.set(uid, (perUid.get(uid) ?? 0) + 1)
  }
  const claimed = new Set(machines.map((m) => m.spec?.providerID).filter(Boolean))
  const states = new Map(all.map((i) => [i.InstanceId, i.State?.Name ?? '']))
  const liveIds = new Set(live.map((i) => i.InstanceId))
  // Only Nodes of this namespace's instances: other namespaces may share the control plane.
  const orphanNodeNames = nodes
    .filter((n) => {
      const state = states.get(instanceIdOf(n.spec?.providerID))
      return state !== undefined && state !== 'shutting-down' && !claimed.has(n.spec?.providerID)
    })
    .map((n) => n.metadata?.name ?? '')
  const orphanInstanceIds = live
    .filter((i) => !uids.has(launchedFor(i, placeOwners)))
    .map((i) => i.InstanceId ?? '')
  const machinesOf = (set: MachineSet) =>
    machines.filter((m) =>
      m.metadata?.ownerReferences?.some((o) => o.uid === set.metadata?.uid && o.controller),
    ).length

  const audit: FleetAudit = {
    machines: machines.length,
    liveInstances: live.length,
    duplicateInstances: [...perUid.entries()]
      .filter(([uid]) => uids.has(uid))
      .reduce((sum, [, n]) => sum + (n - 1), 0),
    orphanInstances: orphanInstanceIds.length,
    orphanInstanceIds,
    orphanNodes: orphanNodeNames.length,
    orphanNodeNames,
    machinesWithoutInstance: machines
      .filter(
        (m) =>
          m.spec?.providerID &&
          !m.metadata?.deletionTimestamp &&
          !liveIds.has(instanceIdOf(m.spec.providerID)),
      )
      .map((m) => m.metadata?.name ?? ''),
    notRunning: machines
      .filter(
        (m) =>
          m.metadata?.deletionTimestamp !== undefined ||
          m.status?.phase !== 'Running' ||
          !m.status?.nodeRef?.name,
      )
      .map((m) => `${m.metadata?.name} (${m.status?.phase ?? 'no phase'}${waitingOn(m)})`),
    wrongCount: sets
      .filter((s) => machinesOf(s) !== (s.spec?.replicas ?? 1))
      .map((s) => `${s.metadata?.name}: ${machinesOf(s)}/${s.spec?.replicas ?? 1}`),
  }
  return { audit, machines }
}

/** Why a Machine is not Running yet, as its first condition that is not True says (reason only). */
function waitingOn(machine: SnapshotMachine): string {
  const pending = machine.status?.conditions?.find((c) => c.status !== 'True')
  return pending ? `, ${pending.type} ${pending.reason ?? ''}`.trimEnd() : ''
}
