/**
 * The chaos audit catches what it claims to: on real moto and the test run's control plane, a
 * fleet of three Machines, each with an instance and a Node (made by hand: no worker, no node
 * simulator, so nothing repairs what the test breaks), audits clean; then each defect is injected
 * on purpose and exactly its count moves to 1.
 */
import {
  DescribeImagesCommand,
  type EC2Client,
  RunInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { nodeForInstance } from '../../../src/dev/ec2-node-simulator'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { formatAwsProviderID } from '../../../src/providers/aws/provider-id'
import { tagKeys } from '../../../src/providers/aws/tags'
import { type RunAudit, startAudit } from '../../chaos/lib/audit'
import {
  type AwsWorld,
  chaosClassName,
  chaosOwnerId,
  startAwsWorld,
} from '../../chaos/lib/aws-world'
import { type ChaosEnvironment, startChaosEnvironment } from '../../chaos/lib/environment'
import { cloneWorldNamespace, deleteNamespaces } from '../../chaos/lib/event-namespaces'
import { namespaceInstances } from '../../chaos/lib/fleet-snapshot'
import { uniqueName } from '../../harness/kube'

interface Member {
  name: string
  uid: string
  instanceId: string
  node: string
}

let env: ChaosEnvironment
let world: AwsWorld
let imageId = ''
const namespaces: string[] = []
const nodes: string[] = []
const audits: RunAudit[] = []

/** Launches an instance tagged for Machine `name`/`uid` as the aws provider would. */
async function launch(ec2: EC2Client, namespace: string, name: string, uid: string) {
  const out = await ec2.send(
    new RunInstancesCommand({
      ImageId: imageId,
      InstanceType: 't3.micro',
      MinCount: 1,
      MaxCount: 1,
      TagSpecifications: [
        {
          ResourceType: 'instance',
          Tags: [
            { Key: tagKeys.owner, Value: chaosOwnerId },
            { Key: tagKeys.machineUid, Value: uid },
            { Key: tagKeys.machineName, Value: name },
            { Key: tagKeys.machineNamespace, Value: namespace },
          ],
        },
      ],
    }),
  )
  const instance = out.Instances?.[0]
  if (!instance?.InstanceId) throw new Error('RunInstances returned no instance')
  return instance
}

async function terminate(ec2: EC2Client, instanceId: string) {
  await ec2.send(new TerminateInstancesCommand({ InstanceIds: [instanceId] }))
}

/** A namespace with three Running Machines, each with its instance and Node, and its audit. */
async function cleanFleet(): Promise<{ namespace: string; audit: RunAudit; members: Member[] }> {
  const { kube, ec2 } = world
  const namespace = uniqueName('chaos-audit')
  namespaces.push(namespace)
  await cloneWorldNamespace(kube, world.namespace, namespace)
  const audit = startAudit({ kube, ec2, namespace })
  audits.push(audit)
  await audit.ready
  const members: Member[] = []
  for (const name of ['m-0', 'm-1', 'm-2']) {
    audit.intents.want(`machine/${name}`, 1)
    members.push(await runningMachine(kube, ec2, namespace, name))
  }
  return { namespace, audit, members }
}

async function runningMachine(
  kube: KubeClient,
  ec2: EC2Client,
  namespace: string,
  name: string,
): Promise<Member> {
  const machine = await kube.create<KubeObject>(machineApiTypes.machine, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: { namespace, name },
    spec: { classRef: { name: chaosClassName } },
  } as KubeObject)
  const uid = machine.metadata?.uid ?? ''
  const instance = await launch(ec2, namespace, name, uid)
  const node = nodeForInstance(instance)
  const nodeName = node?.metadata?.name ?? ''
  if (!node || !nodeName) throw new Error('moto returned an instance without zone or address')
  await kube.create(coreTypes.node, { apiVersion: 'v1', kind: 'Node', ...node } as KubeObject)
  nodes.push(nodeName)
  const zone = instance.Placement?.AvailabilityZone ?? ''
  const ref = { namespace, name }
  await kube.mergePatch(machineApiTypes.machine, ref, {
    spec: { providerID: formatAwsProviderID(zone, instance.InstanceId ?? '') },
  })
  await kube.mergePatch(
    machineApiTypes.machine,
    ref,
    { status: { phase: 'Running', nodeRef: { name: nodeName } } },
    { subresource: 'status' },
  )
  return { name, uid, instanceId: instance.InstanceId ?? '', node: nodeName }
}

/** The audit's three counts, and what they are made of. */
async function audited(audit: RunAudit) {
  const { duplicates, orphans, lost, breakdown } = await audit.count()
  return { counts: { duplicates, orphans, lost }, breakdown }
}

async function counts(audit: RunAudit) {
  return (await audited(audit)).counts
}

const clean = { duplicates: 0, orphans: 0, lost: 0 }

describe('chaos audit', () => {
  beforeAll(async () => {
    env = await startChaosEnvironment({
      shared: { kubeconfigPath: inject('kubeconfigPath'), kubectlPath: inject('kubectlPath') },
    })
    world = await startAwsWorld({
      kc: env.kc,
      kubeconfigPath: env.kubeconfigPath,
      namespace: uniqueName('chaos-audit-world'),
      nodePeriodMs: 0,
    })
    const images = await world.ec2.send(new DescribeImagesCommand({ Owners: ['amazon'] }))
    imageId = images.Images?.find((i) => i.RootDeviceName)?.ImageId ?? ''
  }, 120_000)

  afterAll(async () => {
    for (const audit of audits) await audit.stop()
    await Promise.all(
      nodes.map((name) => world?.kube.delete(coreTypes.node, { name }).catch(() => false)),
    )
    if (world) await deleteNamespaces(world.kube, namespaces)
    await world?.stop()
    await env?.close()
  }, 120_000)

  it('counts a second instance launched for a Machine, live or terminated, as one duplicate', async () => {
    const { namespace, audit, members } = await cleanFleet()
    expect(await counts(audit)).toEqual(clean)
    const [first] = members
    if (!first) throw new Error('no Machine')
    const extra = await launch(world.ec2, namespace, first.name, first.uid)
    expect(await counts(audit)).toEqual({ ...clean, duplicates: 1 })
    await terminate(world.ec2, extra.InstanceId ?? '')
    // moto keeps terminated instances visible: the duplicate still counts once it is gone.
    const states = (await namespaceInstances(world.ec2, namespace)).map((i) => i.State?.Name)
    expect(states.filter((s) => s === 'terminated')).toHaveLength(1)
    expect(await counts(audit)).toEqual({ ...clean, duplicates: 1 })
  })

  it('counts a Node left behind by a deleted Machine as one orphan', async () => {
    const { namespace, audit, members } = await cleanFleet()
    expect(await counts(audit)).toEqual(clean)
    const [, second] = members
    if (!second) throw new Error('no Machine')
    audit.intents.want(`machine/${second.name}`, 0)
    await world.kube.delete(machineApiTypes.machine, { namespace, name: second.name })
    await terminate(world.ec2, second.instanceId)
    const { counts: after, breakdown } = await audited(audit)
    expect(after).toEqual({ ...clean, orphans: 1 })
    expect(breakdown.orphanNodes).toEqual([second.node])
  })

  it('counts a Machine whose instance was deleted as one orphan', async () => {
    const { audit, members } = await cleanFleet()
    expect(await counts(audit)).toEqual(clean)
    const [, , third] = members
    if (!third) throw new Error('no Machine')
    await terminate(world.ec2, third.instanceId)
    const { counts: after, breakdown } = await audited(audit)
    expect(after).toEqual({ ...clean, orphans: 1 })
    expect(breakdown.machinesWithoutInstance).toEqual([third.name])
  })

  it('counts a Machine deleted without a request as one lost', async () => {
    const { namespace, audit, members } = await cleanFleet()
    expect(await counts(audit)).toEqual(clean)
    const [first] = members
    if (!first) throw new Error('no Machine')
    // Its instance and Node go too, as the controller's deletion would do: only the loss remains.
    await world.kube.delete(machineApiTypes.machine, { namespace, name: first.name })
    await terminate(world.ec2, first.instanceId)
    await world.kube.delete(coreTypes.node, { name: first.node })
    expect(await counts(audit)).toEqual({ ...clean, lost: 1 })
  })
})
