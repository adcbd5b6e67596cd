/**
 * Forged and misrouted EC2 notices against a MachineDeployment's Running Machines, end to end:
 * moto's EC2 and SQS, the real control plane, every controller on the in-process bus, the EC2
 * notice source on a queue, and this file playing the kubelet. Warnings about a Running Machine's
 * instance that name another account, another region or another source, that name an instance
 * of a Machine in another namespace or of no Machine, or that come after their own deadline,
 * drain and replace nothing; each leaves the queue and is counted by its reason. The genuine
 * warning then replaces the Machine as always.
 */
import { CreateSubnetCommand, CreateVpcCommand, RunInstancesCommand } from '@aws-sdk/client-ec2'
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs'
import { type V1Node, Watch } from '@kubernetes/client-node'
import { Registry } from 'prom-client'
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { instanceNoticeAnnotation } from '../../../src/api/instance-notice'
import { machineApiTypes } from '../../../src/api/resource-types'
import { startEc2NoticeSource } from '../../../src/bus/ec2-notices/sqs-source'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { machinesForInstances } from '../../../src/providers/aws/instance-owner'
import { parseAwsProviderID } from '../../../src/providers/aws/provider-id'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { tagKeys } from '../../../src/providers/aws/tags'
import { createProviderRegistry } from '../../../src/providers/registry'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'
import { capturingLogger } from '../../harness/capturing-logger'
import { noticeBody } from '../../harness/ec2-notice-bodies'
import { uniqueName, waitFor } from '../../harness/kube'
import { playKubelet } from '../full-stack/aws-kubelet'
import { startFullStack } from '../full-stack/fixture'
import { deploymentLabel, isRunningMachine, machinesOf } from '../full-stack/objects'
import { useMachineTestApi } from '../machine/fixture'
import { awsCredentialsSecret, region, useMoto } from '../providers/aws-fixture'

const moto = useMoto()
const { api, namespace, kube } = useMachineTestApi('trust', { aws: awsProviderSpecSchema() })

beforeAll(async () => {
  const ns = namespace()
  // A VPC of its own, so the Node names (private DNS names) are this file's alone.
  const vpc = await moto().ec2.send(new CreateVpcCommand({ CidrBlock: '10.79.0.0/16' }))
  await moto().ec2.send(
    new CreateSubnetCommand({
      VpcId: vpc.Vpc?.VpcId,
      CidrBlock: '10.79.1.0/24',
      AvailabilityZone: `${region}a`,
      TagSpecifications: [{ ResourceType: 'subnet', Tags: [{ Key: 'tier', Value: 'trust-test' }] }],
    }),
  )
  await kube().create(coreTypes.secret, awsCredentialsSecret(ns))
  const { credentialsSecret: _c, subnet: _s, ...spec } = moto().baseSpec
  await kube().create(machineApiTypes.machineClass, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: ns, name: 'spot' },
    spec: {
      provider: 'aws',
      providerSpec: {
        ...spec,
        subnet: { filters: [{ name: 'tag:tier', values: ['trust-test'] }] },
      },
      credentialsSecretRef: { name: 'aws' },
    },
  })
})

/** An instance launched behind machine-api's back, with `tags`. */
async function strayInstance(tags: Record<string, string>): Promise<string> {
  const out = await moto().ec2.send(
    new RunInstancesCommand({
      ImageId: moto().amiId,
      MinCount: 1,
      MaxCount: 1,
      TagSpecifications: [
        {
          ResourceType: 'instance',
          Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
        },
      ],
    }),
  )
  return out.Instances?.[0]?.InstanceId ?? ''
}

/** The spot warning for `instanceId` at `time`, with `change` made to its envelope. */
function warning(instanceId: string, time: Date, change: Record<string, string> = {}): string {
  const body = JSON.parse(noticeBody('spot-interruption', instanceId, time))
  return JSON.stringify({ ...body, id: uniqueName('event'), ...change })
}

describe('EC2 notices are trusted only for the account, region and instance they can be about', () => {
  it('forged, misrouted and late warnings drain and replace nothing and leave the queue; the genuine one replaces the Machine', async () => {
    const ns = namespace()
    const name = 'trusted'
    await startFullStack(kube(), ns, createProviderRegistry([moto().provider]))
    playKubelet(api().kc, kube(), ns)
    const labels = { [deploymentLabel]: name }
    await kube().create(machineApiTypes.machineDeployment, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'MachineDeployment',
      metadata: { namespace: ns, name },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { classRef: { name: 'spot' }, nodeDrainTimeout: '30m', nodeDeletionTimeout: '10s' },
        },
      },
    })
    const initial = await waitFor(
      '2 Running Machines',
      async () => {
        const running = (await machinesOf(kube(), ns)).filter(isRunningMachine)
        return running.length === 2 && running
      },
      { intervalMs: 300, timeoutMs: 90_000 },
    )
    const [victim] = initial
    const victimName = victim?.metadata.name ?? ''
    const instanceId = parseAwsProviderID(victim?.spec?.providerID) ?? ''
    expect(instanceId).toMatch(/^i-/)
    const otherNamespace = await strayInstance({
      [tagKeys.machineName]: victimName,
      [tagKeys.machineNamespace]: `${ns}-elsewhere`,
      [tagKeys.machineUid]: 'the-uid-of-a-machine-elsewhere',
    })
    const noMachine = await strayInstance({ Name: 'not-a-machine' })

    const machineEvents: Array<{ type: string; object: MachineObject & KubeObject }> = []
    const nodeEvents: Array<{ type: string; object: V1Node }> = []
    const watches = await Promise.all([
      new Watch(api().kc).watch(
        `/apis/machine-api.dev/v1beta1/namespaces/${ns}/machines`,
        {},
        (type: string, object: MachineObject & KubeObject) => {
          machineEvents.push({ type, object })
        },
        () => {},
      ),
      new Watch(api().kc).watch(
        '/api/v1/nodes',
        {},
        (type: string, object: V1Node) => {
          nodeEvents.push({ type, object })
        },
        () => {},
      ),
    ])
    onTestFinished(() => {
      for (const w of watches) w.abort()
    })

    const sqs = new SQSClient({
      region,
      endpoint: moto().moto.endpoint,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    })
    onTestFinished(() => sqs.destroy())
    const queueUrl =
      (await sqs.send(new CreateQueueCommand({ QueueName: uniqueName('trust') }))).QueueUrl ?? ''
    const registry = new Registry()
    const logs: string[] = []
    const source = startEc2NoticeSource({
      sqs,
      queueUrl,
      region,
      kube: kube(),
      machinesForInstances: (ids, signal) =>
        machinesForInstances({ kube: kube(), ec2: moto().ec2, namespace: ns }, ids, signal),
      log: capturingLogger(logs),
      fieldManager: 'machine-api-test',
      registry,
      waitSeconds: 1,
    })
    onTestFinished(() => source.stop())
    const send = (body: string) =>
      sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }))
    const counts = async () => {
      const metric = await registry.getSingleMetric('machine_api_ec2_notices_total')?.get()
      return Object.fromEntries(
        (metric?.values ?? []).map((v) => [`${v.labels.reason}/${v.labels.outcome}`, v.value]),
      )
    }
    const queueEmpty = async () => {
      const out = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: queueUrl,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      )
      const a = out.Attributes ?? {}
      return (
        a.ApproximateNumberOfMessages === '0' && a.ApproximateNumberOfMessagesNotVisible === '0'
      )
    }

    const now = new Date(Math.floor(Date.now() / 1000) * 1000)
    const forged = [
      warning(instanceId, now, { account: '999999999999' }),
      warning(instanceId, now, { region: 'us-east-1' }),
      warning(instanceId, now, { source: 'my.app' }),
      warning(otherNamespace, now),
      warning(noMachine, now),
      // Sent three minutes after its time: its two minutes are over.
      warning(instanceId, new Date(now.getTime() - 180_000)),
    ]
    for (const body of forged) await send(body)
    await waitFor(
      'every forged message handled and deleted',
      async () => (await queueEmpty()) && Object.keys(await counts()).length === 5,
    )
    expect(await counts()).toEqual({
      'SpotInterruption/wrong-account': 1,
      'SpotInterruption/wrong-region': 1,
      'SpotInterruption/wrong-source': 1,
      'SpotInterruption/unknown-instance': 2,
      'SpotInterruption/too-late': 1,
    })
    const warned = logs.filter((l) => l.includes('does not match'))
    expect(warned).toHaveLength(3)
    expect(warned.some((l) => l.includes('"field":"account"'))).toBe(true)
    // Nothing recorded, nothing cordoned, nothing created or deleted.
    const untouched = await machinesOf(kube(), ns)
    expect(untouched.map((m) => m.metadata.name).toSorted()).toEqual(
      initial.map((m) => m.metadata.name).toSorted(),
    )
    for (const m of untouched) {
      expect(m.metadata.annotations?.[instanceNoticeAnnotation]).toBeUndefined()
      expect((m as KubeObject).metadata?.deletionTimestamp).toBeUndefined()
    }
    expect(nodeEvents.some((e) => e.object.spec?.unschedulable === true)).toBe(false)
    const late = await kube().list(coreTypes.event, {
      namespace: ns,
      fieldSelector: `involvedObject.name=${victimName},reason=NoticeTooLate`,
    })
    expect(late.items).toHaveLength(1)
    const seenBefore = machineEvents.length

    await send(warning(instanceId, new Date(Math.floor(Date.now() / 1000) * 1000)))
    await waitFor(
      'the victim replaced: gone, and 2 Running Machines',
      async () => {
        const machines = await machinesOf(kube(), ns)
        const running = machines.filter(isRunningMachine)
        return (
          machines.length === 2 &&
          running.length === 2 &&
          !machines.some((m) => m.metadata.name === victimName)
        )
      },
      { intervalMs: 300, timeoutMs: 90_000 },
    )
    expect((await counts())['SpotInterruption/recorded']).toBe(1)
    // The forged notices changed no Machine before the genuine one came.
    const changedBefore = machineEvents
      .slice(0, seenBefore)
      .filter(
        (e) =>
          e.type !== 'ADDED' || !initial.some((m) => m.metadata.name === e.object.metadata.name),
      )
      .filter((e) => e.object.metadata.deletionTimestamp || e.type === 'ADDED')
    expect(changedBefore).toEqual([])
  })
})
