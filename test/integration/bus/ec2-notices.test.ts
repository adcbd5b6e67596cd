/**
 * The EC2 notice source against moto's real SQS and EC2 and the real control plane: EventBridge
 * events in the documented shapes (test/fixtures/ec2-notices) sent to a queue reach the aws
 * Machine whose instance they name (found by its ownership tags), as InstanceHealthy False and a
 * Warning Event, and leave the queue; duplicates and a late or lesser notice change nothing; an
 * unknown instance and malformed bodies are counted, dropped and do not hold up the others.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EC2Client, RunInstancesCommand } from '@aws-sdk/client-ec2'
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs'
import { Registry } from 'prom-client'
import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { instanceNoticeAnnotation, readInstanceNotice } from '../../../src/api/instance-notice'
import { machineApiTypes } from '../../../src/api/resource-types'
import { type Ec2NoticeSource, startEc2NoticeSource } from '../../../src/bus/ec2-notices/sqs-source'
import { startWorker } from '../../../src/cli/entry/worker'
import { runCli } from '../../../src/cli/main'
import { parseRuntimeSettings } from '../../../src/cli/runtime-settings'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { machinesForInstances } from '../../../src/providers/aws/instance-owner'
import { parseAwsProviderID } from '../../../src/providers/aws/provider-id'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import { machineControllerWith, reconcileMachine } from '../../../src/reconcile/machine/reconcile'
import { capturingLogger } from '../../harness/capturing-logger'
import { noticeBody } from '../../harness/ec2-notice-bodies'
import { uniqueName, waitFor } from '../../harness/kube'
import { runtimeDepsOf } from '../../harness/runtime-deps'
import { relayedClient } from '../../harness/tcp-relay'
import {
  machineCondition,
  machineDeps,
  machineTestKube,
  readMachine,
  testClaimHolder,
  useMachineTestApi,
} from '../machine/fixture'
import { countingKube } from '../machine-set/fixture'
import { region, useMoto } from '../providers/aws-fixture'

const moto = useMoto()
const { api, namespace, kube } = useMachineTestApi('aws', { aws: awsProviderSpecSchema() })

let sqs: SQSClient
beforeAll(async () => {
  sqs = new SQSClient({
    region,
    endpoint: moto().moto.endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  })
  const ns = namespace()
  await kube().create(coreTypes.secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace: ns, name: 'aws' },
    stringData: { aws_access_key_id: 'AKIAMOTO00000000', aws_secret_access_key: 'moto' },
  })
  const { credentialsSecret: _ignored, ...spec } = moto().baseSpec as Record<string, unknown>
  await kube().create(machineApiTypes.machineClass, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: ns, name: 'standard' },
    spec: { provider: 'aws', providerSpec: spec, credentialsSecretRef: { name: 'aws' } },
  })
})

/** A Machine with a launched instance (Provisioned); its key and instance id. */
async function provisionedMachine(name: string) {
  const ns = namespace()
  await kube().create(machineApiTypes.machine, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: { namespace: ns, name },
    spec: { classRef: { name: 'standard' } },
  })
  const key = { kind: 'Machine', namespace: ns, name }
  await reconcileMachine(reconcileDeps(), key)
  const machine = await readMachine(kube(), ns, name)
  const instanceId = parseAwsProviderID(machine?.spec.providerID) ?? ''
  expect(instanceId).toMatch(/^i-/)
  return { key, instanceId }
}

type V1NodeObject = KubeObject & { spec?: { unschedulable?: boolean; providerID?: string } }

/** A provisioned Machine linked to a Node of its instance (as the node-link phase leaves it). */
async function linkedMachine(name: string) {
  const provisioned = await provisionedMachine(name)
  const node = uniqueName(`node-${name}`)
  const machine = await readMachine(kube(), provisioned.key.namespace, name)
  await kube().create(coreTypes.node, {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: node },
    spec: { providerID: machine?.spec.providerID },
  })
  onTestFinished(() =>
    kube()
      .delete(coreTypes.node, { name: node })
      .then(() => undefined),
  )
  await kube().mergePatch(
    machineApiTypes.machine,
    { namespace: provisioned.key.namespace, name },
    { status: { nodeRef: { name: node } } },
    { subresource: 'status' },
  )
  return { ...provisioned, node }
}

function reconcileDeps() {
  return {
    ...machineDeps(kube(), createProviderRegistry([moto().provider])),
    providerCallTimeoutMs: 5000,
  }
}

/** A fresh queue with the source polling it; `stop` in a finally. */
async function queueWithSource(
  options: {
    kube?: KubeClient
    visibilitySeconds?: number
    /** The EC2 client the look-up uses (moto's by default). */
    ec2?: EC2Client
    /** Bodies already queued when the source starts (so its first receive gets them together). */
    queued?: string[]
  } = {},
) {
  const created = await sqs.send(
    new CreateQueueCommand({
      QueueName: uniqueName('notices'),
      Attributes: { VisibilityTimeout: String(options.visibilitySeconds ?? 30) },
    }),
  )
  const queueUrl = created.QueueUrl ?? ''
  for (const body of options.queued ?? []) {
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }))
  }
  const registry = new Registry()
  const logs: string[] = []
  const source: Ec2NoticeSource = startEc2NoticeSource({
    sqs,
    queueUrl,
    region,
    kube: options.kube ?? kube(),
    machinesForInstances: (ids, signal) =>
      machinesForInstances(
        { kube: options.kube ?? kube(), ec2: options.ec2 ?? moto().ec2, namespace: namespace() },
        ids,
        signal,
      ),
    log: capturingLogger(logs),
    fieldManager: 'machine-api-test',
    registry,
    waitSeconds: 1,
  })
  const send = (body: string) =>
    sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }))
  async function counts(): Promise<Record<string, number>> {
    const metric = await registry.getSingleMetric('machine_api_ec2_notices_total')?.get()
    return Object.fromEntries(
      (metric?.values ?? []).map((v) => [`${v.labels.reason}/${v.labels.outcome}`, v.value]),
    )
  }
  async function queueEmpty(): Promise<boolean> {
    const out = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    )
    const a = out.Attributes ?? {}
    return a.ApproximateNumberOfMessages === '0' && a.ApproximateNumberOfMessagesNotVisible === '0'
  }
  return { queueUrl, send, counts, queueEmpty, logs, stop: () => source.stop() }
}

const notice = (name: string, instanceId: string, time: Date) => noticeBody(name, instanceId, time)

async function eventsAbout(name: string, reason: string) {
  const page = await kube().list(coreTypes.event, {
    namespace: namespace(),
    fieldSelector: `involvedObject.name=${name},reason=${reason}`,
  })
  return page.items as Array<KubeObject & { message?: string; count?: number }>
}

describe('EC2 notice source (moto SQS and EC2)', () => {
  it('a spot interruption warning sets InstanceHealthy and a Warning Event, then leaves the queue', async () => {
    const { key, instanceId } = await provisionedMachine('spot-1')
    const queue = await queueWithSource()
    try {
      const sent = new Date()
      await queue.send(notice('spot-interruption', instanceId, sent))
      await waitFor('the notice recorded', async () => {
        const m = await readMachine(kube(), key.namespace, key.name)
        return m?.metadata.annotations?.[instanceNoticeAnnotation]
      })
      await waitFor('the message deleted', () => queue.queueEmpty())
      // The annotation changed the Machine: its watch would run this reconcile.
      await reconcileMachine(reconcileDeps(), key)
      const machine = await readMachine(kube(), key.namespace, key.name)
      const condition = machineCondition(machine, 'InstanceHealthy')
      const time = sent.toISOString().replace(/\.\d+Z$/, '.000Z')
      const deadline = new Date(Date.parse(time) + 120_000).toISOString()
      expect(condition).toMatchObject({ status: 'False', reason: 'SpotInterruption' })
      expect(condition?.message).toContain(instanceId)
      expect(condition?.message).toContain(time)
      expect(condition?.message).toContain(deadline)
      // A warning, not an outage: Ready is not what the notice changes.
      expect(machineCondition(machine, 'Ready')?.reason).not.toBe('SpotInterruption')
      const events = await eventsAbout(key.name, 'SpotInterruption')
      expect(events).toHaveLength(1)
      expect(events[0]).toMatchObject({ type: 'Warning' })
      expect(events[0]?.message).toContain(deadline)
      expect(await queue.counts()).toEqual({ 'SpotInterruption/recorded': 1 })
    } finally {
      await queue.stop()
    }
  })

  it("a spot interruption warning cordons its Machine's Node at once, with no reconcile; a rebalance recommendation cordons nothing", async () => {
    const spot = await linkedMachine('cordon-spot')
    const rebalance = await linkedMachine('cordon-rebalance')
    const queue = await queueWithSource()
    try {
      const at = new Date()
      await queue.send(notice('rebalance-recommendation', rebalance.instanceId, at))
      await queue.send(notice('spot-interruption', spot.instanceId, at))
      // No controller runs in this file: only the notice source can have cordoned it.
      await waitFor("the interrupted Machine's Node cordoned", async () => {
        const node = await kube().get<V1NodeObject>(coreTypes.node, { name: spot.node })
        return node?.spec?.unschedulable === true
      })
      await waitFor('both messages handled and deleted', async () => {
        const c = await queue.counts()
        return c['RebalanceRecommended/recorded'] === 1 && (await queue.queueEmpty())
      })
      const untouched = await kube().get<V1NodeObject>(coreTypes.node, { name: rebalance.node })
      expect(untouched?.spec?.unschedulable).toBeUndefined()
      const machine = await readMachine(kube(), spot.key.namespace, spot.key.name)
      expect((machine as KubeObject | undefined)?.metadata?.deletionTimestamp).toBeUndefined()
    } finally {
      await queue.stop()
    }
  })

  it('the same message three times, a late rebalance and a reordered interruption make one change each way', async () => {
    const { key, instanceId } = await provisionedMachine('dup-1')
    const queue = await queueWithSource()
    try {
      const at = new Date()
      const spot = notice('spot-interruption', instanceId, at)
      await Promise.all([queue.send(spot), queue.send(spot), queue.send(spot)])
      await waitFor('three deliveries handled', async () => {
        const c = await queue.counts()
        return (c['SpotInterruption/recorded'] ?? 0) + (c['SpotInterruption/duplicate'] ?? 0) === 3
      })
      const first = await readMachine(kube(), key.namespace, key.name)
      // A rebalance recommendation sent earlier but delivered late: less serious, changes nothing.
      await queue.send(
        notice('rebalance-recommendation', instanceId, new Date(at.getTime() - 60_000)),
      )
      // The instance starts shutting down; then a copy of the interruption warning arrives again.
      await queue.send(
        notice('state-change-shutting-down', instanceId, new Date(at.getTime() + 120_000)),
      )
      await waitFor(
        'the state change recorded',
        async () => (await queue.counts())['InstanceTerminated/recorded'],
      )
      await queue.send(spot)
      await waitFor(
        'everything handled',
        async () =>
          (await queue.queueEmpty()) && (await queue.counts())['SpotInterruption/duplicate'] === 3,
      )

      expect(await queue.counts()).toEqual({
        'SpotInterruption/recorded': 1,
        'SpotInterruption/duplicate': 3,
        'RebalanceRecommended/duplicate': 1,
        'InstanceTerminated/recorded': 1,
      })
      expect(first?.metadata.annotations?.[instanceNoticeAnnotation]).toContain('SpotInterruption')
      await reconcileMachine(reconcileDeps(), key)
      const machine = await readMachine(kube(), key.namespace, key.name)
      expect(machineCondition(machine, 'InstanceHealthy')).toMatchObject({
        status: 'False',
        reason: 'InstanceTerminated',
      })
      const spotEvents = await eventsAbout(key.name, 'SpotInterruption')
      expect(spotEvents.map((e) => e.count ?? 1)).toEqual([1])
      expect(await eventsAbout(key.name, 'RebalanceRecommended')).toHaveLength(0)
      expect(await eventsAbout(key.name, 'InstanceTerminated')).toHaveLength(1)
    } finally {
      await queue.stop()
    }
  })

  it('a closed AWS Health event removes the scheduled maintenance it announced', async () => {
    const { key, instanceId } = await provisionedMachine('closed-1')
    const queue = await queueWithSource()
    try {
      const at = new Date()
      const start = new Date(at.getTime() + 86_400_000)
      const end = new Date(start.getTime() + 3_600_000)
      const announced = notice('health-scheduled-retirement', instanceId, at)
        .replace(/"startTime": "[^"]+"/, `"startTime": "${start.toUTCString()}"`)
        .replace(/"endTime": "[^"]+"/, `"endTime": "${end.toUTCString()}"`)
      await queue.send(announced)
      await waitFor(
        'the maintenance recorded',
        async () => (await queue.counts())['ScheduledMaintenance/recorded'],
      )
      await reconcileMachine(reconcileDeps(), key)
      const recorded = await readMachine(kube(), key.namespace, key.name)
      expect(machineCondition(recorded, 'InstanceHealthy')).toMatchObject({
        status: 'False',
        reason: 'ScheduledMaintenance',
      })
      // The same event, closed: AWS Health no longer plans it for the instance.
      await queue.send(announced.replace('"upcoming"', '"closed"'))
      await waitFor(
        'the closed event handled',
        async () =>
          (await queue.queueEmpty()) && (await queue.counts())['ScheduledMaintenance/cleared'],
      )
      const cleared = await readMachine(kube(), key.namespace, key.name)
      expect(cleared?.metadata.annotations?.[instanceNoticeAnnotation]).toBeUndefined()
      expect(await eventsAbout(key.name, 'MaintenanceClosed')).toHaveLength(1)
      await reconcileMachine(reconcileDeps(), key)
      const machine = await readMachine(kube(), key.namespace, key.name)
      expect(machineCondition(machine, 'InstanceHealthy')).toMatchObject({ status: 'True' })
    } finally {
      await queue.stop()
    }
  })

  it('a batch of notices about three Machines and an unknown instance is one DescribeInstances', async () => {
    const machines = await Promise.all(['batch-1', 'batch-2', 'batch-3'].map(provisionedMachine))
    const describes: string[] = []
    const ec2 = new EC2Client({
      region,
      endpoint: moto().moto.endpoint,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    })
    ec2.middlewareStack.add(
      (next, context) => (args) => {
        describes.push(String(context.commandName))
        return next(args)
      },
      { step: 'initialize' },
    )
    onTestFinished(() => ec2.destroy())
    const at = new Date()
    const bodies = [...machines.map((m) => m.instanceId), 'i-0fffffffffffffff1'].map((id) =>
      notice('spot-interruption', id, at),
    )
    const queue = await queueWithSource({ ec2, queued: bodies })
    try {
      await waitFor('every message handled', async () => {
        const c = await queue.counts()
        return (await queue.queueEmpty()) && c['SpotInterruption/recorded'] === 3 && c
      })
      expect(await queue.counts()).toEqual({
        'SpotInterruption/recorded': 3,
        'SpotInterruption/unknown-instance': 1,
      })
      expect(describes).toEqual(['DescribeInstancesCommand'])
    } finally {
      await queue.stop()
    }
  })

  it('notices about instances machine-api does not own list no Machines: the tags are the index', async () => {
    const { instanceId } = await provisionedMachine('index-1')
    const launched = await moto().ec2.send(
      new RunInstancesCommand({ ImageId: moto().amiId, MinCount: 3, MaxCount: 3 }),
    )
    const strangers = (launched.Instances ?? []).map((i) => i.InstanceId ?? '')
    const counted = countingKube(api().kc)
    onTestFinished(() => counted.kube.close())
    const at = new Date()
    const bodies = [...strangers, 'i-0fffffffffffffff2', instanceId].map((id) =>
      notice('spot-interruption', id, at),
    )
    const queue = await queueWithSource({ kube: counted.kube, queued: bodies })
    try {
      await waitFor('every message handled', async () => {
        const c = await queue.counts()
        return (await queue.queueEmpty()) && c['SpotInterruption/recorded'] === 1 && c
      })
      expect(await queue.counts()).toEqual({
        'SpotInterruption/recorded': 1,
        'SpotInterruption/unknown-instance': 4,
      })
      const lists = Object.entries(counted.byVerb()).filter(([key]) => key.startsWith('list'))
      expect(lists).toEqual([])
    } finally {
      await queue.stop()
    }
  })

  it('an unknown instance and malformed bodies are counted and dropped without holding up a good one', async () => {
    const { key, instanceId } = await provisionedMachine('poison-1')
    const queue = await queueWithSource()
    try {
      const marker = `body-marker-${Math.random().toString(36).slice(2)}`
      await queue.send(notice('spot-interruption', 'i-0fffffffffffffff0', new Date()))
      await queue.send(`{"detail-type": "EC2 Spot Instance Interruption Warning", "${marker}": `)
      await queue.send(
        JSON.stringify({ 'detail-type': 'EC2 Spot Instance Interruption Warning', marker }),
      )
      await queue.send(notice('state-change-running', instanceId, new Date()))
      await queue.send(notice('rebalance-recommendation', instanceId, new Date()))
      await waitFor(
        'every message handled',
        async () => (await queue.queueEmpty()) && Object.keys(await queue.counts()).length === 4,
      )
      expect(await queue.counts()).toEqual({
        'SpotInterruption/unknown-instance': 1,
        'none/malformed': 2,
        'none/ignored': 1,
        'RebalanceRecommended/recorded': 1,
      })
      const machine = await readMachine(kube(), key.namespace, key.name)
      expect(machine?.metadata.annotations?.[instanceNoticeAnnotation]).toContain(
        'RebalanceRecommended',
      )
      expect(queue.logs.join('\n')).not.toContain(marker)
    } finally {
      await queue.stop()
    }
  })

  it('a notice the apiserver could not take stays queued and is recorded when SQS delivers it again', async () => {
    const { key, instanceId } = await provisionedMachine('outage-1')
    const { relay, kube: relayed } = await relayedClient(api().kc, machineTestKube)
    const queue = await queueWithSource({ kube: relayed, visibilitySeconds: 1 })
    try {
      relay.cut()
      await queue.send(notice('spot-interruption', instanceId, new Date()))
      await waitFor(
        'a failed attempt',
        async () => (await queue.counts())['SpotInterruption/failed'],
      )
      expect(await queue.queueEmpty()).toBe(false)
      relay.restore()
      await waitFor(
        'recorded on redelivery',
        async () => (await queue.counts())['SpotInterruption/recorded'] === 1,
      )
      await waitFor('the message deleted', () => queue.queueEmpty())
      const m = await readMachine(kube(), key.namespace, key.name)
      expect(m?.metadata.annotations?.[instanceNoticeAnnotation]).toContain('SpotInterruption')
    } finally {
      await queue.stop()
    }
  })

  it('machine-api dev interrupt sends notices the source records on the Machine, one kind after another', async () => {
    const { key, instanceId } = await provisionedMachine('cli-1')
    const queue = await queueWithSource()
    const dir = mkdtempSync(join(tmpdir(), 'interrupt-'))
    const kubeconfig = join(dir, 'kubeconfig')
    writeFileSync(kubeconfig, api().kc.exportConfig())
    const out: string[] = []
    const io = {
      stdout: (t: string) => out.push(t),
      stderr: (t: string) => out.push(t),
      env: { AWS_SQS_ENDPOINT: moto().moto.endpoint, AWS_REGION: region },
      packageRoot: process.cwd(),
    }
    try {
      // Each more serious than the last, so each replaces the recorded one.
      for (const [kind, reason] of [
        ['rebalance', 'RebalanceRecommended'],
        ['spot', 'SpotInterruption'],
        ['terminated', 'InstanceTerminated'],
      ] as const) {
        const argv = ['dev', 'interrupt', key.name, '-n', key.namespace, '--kind', kind]
        const flags = ['--kubeconfig', kubeconfig, '--queue-url', queue.queueUrl]
        expect(await runCli([...argv, ...flags], io)).toBe(0)
        await waitFor(`the ${kind} notice recorded`, async () => {
          const m = await readMachine(kube(), key.namespace, key.name)
          return readInstanceNotice(m?.metadata.annotations)?.reason === reason
        })
      }
      expect(out.join('')).toContain(`(instance ${instanceId})`)
      expect(await queue.counts()).toEqual({
        'RebalanceRecommended/recorded': 1,
        'SpotInterruption/recorded': 1,
        'InstanceTerminated/recorded': 1,
      })
    } finally {
      await queue.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('the worker with EC2_NOTICES_QUEUE_URL set: the notice reaches InstanceHealthy through the Machine watch', async () => {
    const created = await sqs.send(new CreateQueueCommand({ QueueName: uniqueName('worker') }))
    // The SDK's default credential chain, as in a deployment (moto accepts any keys).
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAMOTOTEST0000')
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'moto')
    onTestFinished(() => {
      vi.unstubAllEnvs()
    })
    const providers = createProviderRegistry([moto().provider])
    const deps = runtimeDepsOf(machineDeps(kube(), providers))
    const settings = {
      ...parseRuntimeSettings({}, { SWEEP_PERIOD_SECONDS: '0' }, { bus: true }),
      port: 0,
      namespace: namespace(),
    }
    const controller = machineControllerWith({ providers, claimHolder: testClaimHolder })
    const worker = await startWorker(deps, settings, [controller], {
      EC2_NOTICES_QUEUE_URL: created.QueueUrl,
      AWS_REGION: region,
      AWS_SQS_ENDPOINT: moto().moto.endpoint,
      AWS_EC2_ENDPOINT: moto().moto.endpoint,
    })
    onTestFinished(() => worker.stop())

    const name = 'worker-1'
    await kube().create(machineApiTypes.machine, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'Machine',
      metadata: { namespace: namespace(), name },
      spec: { classRef: { name: 'standard' } },
    })
    const instanceId = await waitFor('the worker launched the instance', async () =>
      parseAwsProviderID((await readMachine(kube(), namespace(), name))?.spec.providerID),
    )
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: created.QueueUrl,
        MessageBody: notice('spot-interruption', instanceId, new Date()),
      }),
    )
    const condition = await waitFor('InstanceHealthy set by the worker', async () => {
      const c = machineCondition(await readMachine(kube(), namespace(), name), 'InstanceHealthy')
      return c?.status === 'False' && c
    })
    expect(condition).toMatchObject({ reason: 'SpotInterruption' })
    const metrics = await deps.registry.metrics()
    expect(metrics).toContain(
      'machine_api_ec2_notices_total{reason="SpotInterruption",outcome="recorded"} 1',
    )
  })
})
