/**
 * @module The end of an aws-world scenario, with the worker still running: delete every MachineSet
 * and Machine of the namespace and wait until their instances and simulated Nodes are gone, so the
 * (possibly shared) control plane keeps nothing. Whatever is left when the wait ends is reported:
 * an instance or Node that outlives its deleted Machine is an orphan.
 */
import type { EC2Client } from '@aws-sdk/client-ec2'
import { LABELS } from '../../../src/api/group'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject, type ResourceType } from '../../../src/kube/resource'
import { tagKeys } from '../../../src/providers/aws/tags'
import { liveInstances } from './fleet-snapshot'

export interface TeardownResult {
  machinesLeft: number
  instancesLeft: number
  nodesLeft: number
  waitedMs: number
}

async function deleteAll(kube: KubeClient, type: ResourceType, namespace: string) {
  const items = (await kube.list<KubeObject>(type, { namespace })).items
  for (const item of items) {
    if (item.metadata?.deletionTimestamp) continue
    await kube.delete(type, { namespace, name: item.metadata?.name ?? '' }).catch(() => {})
  }
  return items.length
}

export async function tearDownFleet(options: {
  kube: KubeClient
  ec2: EC2Client
  namespace: string
  timeoutMs?: number
}): Promise<TeardownResult> {
  const { kube, ec2, namespace } = options
  const started = Date.now()
  const deadline = started + (options.timeoutMs ?? 90_000)
  const look = async (): Promise<TeardownResult> => {
    // Repeated: a MachineSet reconcile that read its set before the delete may still create one.
    await deleteAll(kube, machineApiTypes.machineSet, namespace)
    const machinesLeft = await deleteAll(kube, machineApiTypes.machine, namespace)
    const instancesLeft = (await liveInstances(ec2)).filter(
      (i) => i.Tags?.find((t) => t.Key === tagKeys.machineNamespace)?.Value === namespace,
    ).length
    const nodesLeft = (await kube.list(coreTypes.node, { labelSelector: LABELS.simulatedBy })).items
      .length
    return { machinesLeft, instancesLeft, nodesLeft, waitedMs: Date.now() - started }
  }
  for (;;) {
    const result = await look()
    const clean = result.machinesLeft + result.instancesLeft + result.nodesLeft === 0
    if (clean || Date.now() >= deadline) return result
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}
