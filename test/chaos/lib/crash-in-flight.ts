/**
 * @module What the worker is in the middle of, seen from the apiserver: Machines being provisioned
 * (no providerID yet, or a create claim held) and Machines being deleted. The crash scenario looks
 * before each kill, to count kills that landed mid-reconcile and to aim some of them there.
 */
import type { EC2Client } from '@aws-sdk/client-ec2'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { KubeObject } from '../../../src/kube/resource'
import { tagKeys } from '../../../src/providers/aws/tags'
import { createClaimAnnotation } from '../../../src/reconcile/machine/claim-holder'
import { liveInstances } from './fleet-snapshot'

type Machine = KubeObject & {
  spec?: { providerID?: string }
  status?: { phase?: string; nodeRef?: { name?: string } }
}

export interface InFlight {
  /** Machines not yet Running and not being deleted (launching, or waiting for their Node). */
  provisioning: number
  /** Machines whose create claim is held: a reconcile is between claim and providerID write. */
  claimed: number
  /** Machines with a deletionTimestamp (finalizer still held: drain, terminate, Node). */
  deleting: number
  /**
   * Machines whose instance runs but whose providerID is not written yet: a kill now lands between
   * RunInstances and the Machine write (only counted when an EC2 client is given).
   */
  launchedUnrecorded: number
  /**
   * Instances of launch groups that no member has tagged as its own yet: a kill now lands
   * between a group's RunInstances and its members' claims (only counted with an EC2 client).
   */
  groupUnclaimed: number
}

export async function inFlight(
  kube: KubeClient,
  namespace: string,
  ec2?: EC2Client,
): Promise<InFlight> {
  const machines = (await kube.list<Machine>(machineApiTypes.machine, { namespace })).items
  const live = ec2 ? await liveInstances(ec2) : []
  const tag = (i: (typeof live)[number], key: string) => i.Tags?.find((t) => t.Key === key)?.Value
  const launched = new Set(live.map((i) => tag(i, tagKeys.machineUid)))
  const groupUnclaimed = live.filter(
    (i) => tag(i, tagKeys.launchGroup) !== undefined && tag(i, tagKeys.machineUid) === undefined,
  ).length
  const deleting = machines.filter((m) => m.metadata?.deletionTimestamp !== undefined)
  const present = machines.filter((m) => m.metadata?.deletionTimestamp === undefined)
  return {
    provisioning: present.filter((m) => m.status?.phase !== 'Running' || !m.status?.nodeRef?.name)
      .length,
    claimed: present.filter((m) => createClaimAnnotation in (m.metadata?.annotations ?? {})).length,
    deleting: deleting.length,
    launchedUnrecorded: present.filter((m) => !m.spec?.providerID && launched.has(m.metadata?.uid))
      .length,
    groupUnclaimed,
  }
}

/** True when a kill now would interrupt provisioning or deletion work. */
export function isBusy(state: InFlight): boolean {
  return state.provisioning + state.claimed + state.deleting > 0
}

/**
 * Polls until a create claim is held or a Machine is being deleted (the moments a kill hurts
 * most), for at most `timeoutMs`; resolves either way with the last look.
 */
export async function waitForMidReconcile(
  kube: KubeClient,
  namespace: string,
  timeoutMs: number,
): Promise<InFlight> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const state = await inFlight(kube, namespace)
    if (state.claimed > 0 || state.deleting > 0 || Date.now() >= deadline) return state
    await new Promise((resolve) => setTimeout(resolve, 40))
  }
}
