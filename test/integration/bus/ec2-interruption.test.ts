/**
 * A spot interruption of a MachineDeployment's Machine, end to end: moto's EC2 and SQS, the real
 * control plane, every controller on the in-process bus, the EC2 notice source on a queue, and
 * this file playing the kubelet (a kwok-kept Node under each instance's private DNS name). The
 * notice, delivered three times and followed by an older rebalance recommendation (out of order),
 * makes exactly one replacement, created before the old Machine's deletion starts (and so before
 * its instance is terminated); the old Node is cordoned and its pod evicted before the notice's
 * deadline, the drain finishing rather than giving up; the deployment returns to its replicas.
 */
import { CreateSubnetCommand, CreateVpcCommand } from '@aws-sdk/client-ec2'
import { CoreV1Api, type V1Node, type V1Pod, Watch } from '@kubernetes/client-node'
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { parseAwsProviderID } from '../../../src/providers/aws/provider-id'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'
import { noticeBody } from '../../harness/ec2-notice-bodies'
import { waitFor } from '../../harness/kube'
import { playKubelet } from '../full-stack/aws-kubelet'
import { startFullStack } from '../full-stack/fixture'
import { deploymentLabel, isRunningMachine, machinesOf } from '../full-stack/objects'
import { useMachineTestApi } from '../machine/fixture'
import { awsCredentialsSecret, region, useMoto } from '../providers/aws-fixture'
import { startNoticeQueue } from './notice-queue'

const moto = useMoto()
const { api, namespace, kube } = useMachineTestApi('interrupt', { aws: awsProviderSpecSchema() })
const notice = (name: string, instanceId: string, time: Date) => noticeBody(name, instanceId, time)

beforeAll(async () => {
  const ns = namespace()
  // A VPC of its own: its instances' private DNS names (the Node names) are this file's alone,
  // while other files' moto servers hand out the same addresses in their default subnets.
  const vpc = await moto().ec2.send(new CreateVpcCommand({ CidrBlock: '10.78.0.0/16' }))
  await moto().ec2.send(
    new CreateSubnetCommand({
      VpcId: vpc.Vpc?.VpcId,
      CidrBlock: '10.78.1.0/24',
      AvailabilityZone: `${region}a`,
      TagSpecifications: [
        { ResourceType: 'subnet', Tags: [{ Key: 'tier', Value: 'interrupt-test' }] },
      ],
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
        subnet: { filters: [{ name: 'tag:tier', values: ['interrupt-test'] }] },
      },
      credentialsSecretRef: { name: 'aws' },
    },
  })
})

/** Every watch event of `path` from now on, in the apiserver's order. */
async function recordWatch<T extends KubeObject>(path: string) {
  const events: Array<{ type: string; object: T }> = []
  const request = await new Watch(api().kc).watch(
    path,
    {},
    (type: string, object: T) => {
      events.push({ type, object })
    },
    () => {},
  )
  onTestFinished(() => request.abort())
  return events
}

describe('an EC2 spot interruption of a MachineDeployment Machine (moto EC2 and SQS)', () => {
  it('replaces it first, drains its Node before the deadline and returns to the replicas, once for three copies and a late rebalance', async () => {
    const ns = namespace()
    const name = 'spot-workers'
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
          // A drain timeout far beyond the notice: the notice's deadline is what bounds it.
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
    const nodeName = victim?.status?.nodeRef?.name ?? ''
    const instanceId = parseAwsProviderID(victim?.spec?.providerID) ?? ''
    expect(instanceId).toMatch(/^i-/)
    const core = api().kc.makeApiClient(CoreV1Api)
    await core.createNamespacedPod({
      namespace: ns,
      body: {
        metadata: { name: 'app' },
        spec: { nodeName, containers: [{ name: 'c', image: 'registry.example/app:1' }] },
      },
    })
    await waitFor('the pod running on the victim', async () => {
      const pod = await core.readNamespacedPod({ namespace: ns, name: 'app' })
      return pod.status?.phase === 'Running'
    })
    const machineEvents = await recordWatch<MachineObject & KubeObject>(
      `/apis/machine-api.dev/v1beta1/namespaces/${ns}/machines`,
    )
    const nodeEvents = await recordWatch<V1Node & KubeObject>('/api/v1/nodes')
    const podEvents = await recordWatch<V1Pod & KubeObject>(`/api/v1/namespaces/${ns}/pods`)

    const send = await startNoticeQueue({
      endpoint: moto().moto.endpoint,
      ec2: moto().ec2,
      kube: kube(),
      namespace: ns,
    })
    const at = new Date(Math.floor(Date.now() / 1000) * 1000)
    const deadline = at.getTime() + 120_000
    const spot = notice('spot-interruption', instanceId, at)
    await Promise.all([send(spot), send(spot), send(spot)])
    await send(notice('rebalance-recommendation', instanceId, new Date(at.getTime() - 60_000)))

    const final = await waitFor(
      'the victim gone and 2 Running Machines again',
      async () => {
        const machines = await machinesOf(kube(), ns)
        const running = machines.filter(isRunningMachine)
        return (
          machines.length === 2 &&
          running.length === 2 &&
          !machines.some((m) => m.metadata.name === victimName) &&
          running
        )
      },
      { intervalMs: 300, timeoutMs: 90_000 },
    )

    // Exactly one replacement: one Machine added, whatever the copies and the late rebalance (the
    // watch opens with an ADDED event for each Machine that already existed).
    const before = new Set(initial.map((m) => m.metadata.name))
    const isNew = (e: { type: string; object: MachineObject }) =>
      e.type === 'ADDED' && !before.has(e.object.metadata.name)
    const added = machineEvents.filter(isNew).map((e) => e.object)
    expect(added.map((m) => m.metadata.name)).toHaveLength(1)
    const replacement = added[0]?.metadata.name
    expect(final.map((m) => m.metadata.name)).toContain(replacement)
    // Placed by the set's zone balancing like any create (the class's one subnet is in zone a).
    expect(added[0]?.spec?.failureDomain).toBe(`${region}a`)
    // Created before the victim's deletion began, which comes before its instance's termination.
    const deletedAt = machineEvents.findIndex(
      (e) => e.object.metadata.name === victimName && e.object.metadata.deletionTimestamp,
    )
    const createdAt = machineEvents.findIndex(isNew)
    expect(createdAt).toBeGreaterThanOrEqual(0)
    expect(createdAt).toBeLessThan(deletedAt)
    // Cordoned, and drained (the pod evicted) before the deadline.
    const victimNode = nodeEvents.filter((e) => e.object.metadata?.name === nodeName)
    expect(victimNode.some((e) => e.object.spec?.unschedulable === true)).toBe(true)
    // The pod was evicted (a graceful deletion, not the pod GC after the Node went) in time.
    const evicted = podEvents.find(
      (e) => e.object.metadata?.name === 'app' && e.object.metadata.deletionTimestamp,
    )
    expect(Date.parse(String(evicted?.object.metadata?.deletionTimestamp))).toBeLessThan(deadline)
    // The drain finished rather than gave up at the deadline (the Machine's Events outlive it).
    const drainEvents = await core.listNamespacedEvent({
      namespace: ns,
      fieldSelector: `involvedObject.name=${victimName}`,
    })
    const reasons = drainEvents.items.map((e) => e.reason)
    expect(reasons).toContain('NodeDrained')
    expect(reasons).not.toContain('InterruptionDeadline')
    await waitFor('the evicted pod gone', async () => {
      const pods = await core.listNamespacedPod({ namespace: ns })
      return !pods.items.some((p) => p.metadata?.name === 'app')
    })
    expect(await moto().tagged(victim?.metadata.uid ?? '')).toHaveLength(0)
  })
})
