/**
 * The JetStream transport against a real nats-server and apiserver: bursts coalesce to at most two
 * reconciles, a sweep never pushes a waiting hint to the back, nak(delay) delays redelivery, poison messages end as dead letters with their reason,
 * and the watch bridge plus worker converge an object end to end.
 */
import type { KubeConfig } from '@kubernetes/client-node'
import {
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream'
import { connect, type NatsConnection } from '@nats-io/transport-node'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { selfMapper } from '../../../src/bus/event-mapping'
import { deadLetterHeaders } from '../../../src/bus/jetstream/dead-letter'
import { watchMaxDeliveries } from '../../../src/bus/jetstream/max-deliveries'
import { createKeyPublisher, createSweepPublisher } from '../../../src/bus/jetstream/publisher'
import {
  defaultJetStreamConfig,
  ensureJetStream,
  type JetStreamConfig,
} from '../../../src/bus/jetstream/setup'
import { keySubject } from '../../../src/bus/jetstream/subjects'
import { startWatchBridge } from '../../../src/bus/jetstream/watch-bridge'
import { startJetStreamWorker } from '../../../src/bus/jetstream/worker'
import type { RunOutcome } from '../../../src/bus/run-outcome'
import { TransientError } from '../../../src/errors'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { ObjectKey } from '../../../src/kube/object-key'
import { silentLogger } from '../../../src/observability/logger'
import type { Controller } from '../../../src/reconcile/runtime/controller'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'
import { testKubeConfig, testNamespace, waitFor } from '../../harness/kube'
import { type NatsServer, startNatsServer } from '../../harness/nats/nats-server'
import {
  converged,
  ensureWidgetCrd,
  testDeps,
  testKube,
  widget,
  widgetController,
  widgetType,
} from '../runtime/widget'

let server: NatsServer
let nc: NatsConnection
let js: JetStreamClient
let jsm: JetStreamManager
let kc: KubeConfig
let kube: KubeClient
let topology = 0

beforeAll(async () => {
  server = await startNatsServer()
  nc = await connect({ servers: server.url })
  js = jetstream(nc)
  jsm = await jetstreamManager(nc)
  kc = testKubeConfig()
  kube = testKube(kc)
  await ensureWidgetCrd(kube)
})

afterAll(async () => {
  kube?.close()
  await nc?.close()
  await server?.stop()
})

/** A fresh topology per test, so streams and consumers never leak between tests. */
async function freshConfig(overrides: Partial<JetStreamConfig> = {}): Promise<JetStreamConfig> {
  topology++
  const config: JetStreamConfig = {
    ...defaultJetStreamConfig,
    stream: `RECONCILE_${topology}`,
    subjectPrefix: `reconcile${topology}`,
    deadLetterStream: `DEAD_${topology}`,
    deadLetterPrefix: `dead${topology}`,
    ...overrides,
  }
  await ensureJetStream(jsm, config)
  return config
}

type Settled = {
  key: ObjectKey | undefined
  outcome: RunOutcome | undefined
  deliveryCount: number
}

async function worker(config: JetStreamConfig, controller: Controller) {
  const settled: Settled[] = []
  const w = await startJetStreamWorker({
    js,
    config,
    runner: createRunner({ controllers: [controller], deps: testDeps(kube) }),
    log: silentLogger(),
    onSettled: (event) => settled.push(event),
  })
  onTestFinished(() => w.stop())
  return settled
}

function counting(run: (key: ObjectKey, n: number) => Promise<{ requeueAfterMs?: number }>) {
  const runs: Array<{ key: string; n: number }> = []
  const controller: Controller = {
    kind: 'Widget',
    resource: widgetType,
    async reconcile(_deps, key) {
      const n = runs.filter((r) => r.key === key.name).length + 1
      runs.push({ key: key.name, n })
      return await run(key, n)
    },
  }
  return { controller, runs }
}

/** The watch bridge publishing Widget changes of `namespace`; stopped after the test. */
async function startBridge(config: JetStreamConfig, namespace: string): Promise<void> {
  const bridge = startWatchBridge({
    kube,
    watched: [widgetType],
    mappers: [selfMapper('Widget')],
    publish: createKeyPublisher(js, config),
    timers: realTimers(),
    log: silentLogger(),
    namespace,
  })
  onTestFinished(() => bridge.stop())
  await bridge.ready()
}

async function drained(config: JetStreamConfig): Promise<boolean> {
  const stream = await jsm.streams.info(config.stream)
  const consumer = await jsm.consumers.info(config.stream, config.consumer)
  return stream.state.messages === 0 && consumer.num_ack_pending === 0 && consumer.num_pending === 0
}

describe('JetStream transport', () => {
  it('runs at most 2 reconciles for 100 publishes of one object', async () => {
    const config = await freshConfig()
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const { controller, runs } = counting(async (_key, n) => {
      // Hold the first run until the burst is published: the worst case for coalescing.
      if (n === 1) await gate
      return {}
    })
    await worker(config, controller)
    const publish = createKeyPublisher(js, config)
    const key = { kind: 'Widget', namespace: 'ns', name: 'hot' }
    await publish(key)
    await waitFor('first run started', () => runs.length === 1)
    for (let i = 1; i < 100; i++) await publish(key)
    // Let the consumer hand over what the stream still holds before the first run ends: a hint
    // delivered only after the second run started (server lag) would rightly cause a third run.
    await waitFor('burst delivered', async () => {
      const consumer = await jsm.consumers.info(config.stream, config.consumer)
      return consumer.num_pending === 0
    })
    release()
    await waitFor('queue drained', () => drained(config))
    expect(runs.length).toBeGreaterThanOrEqual(1)
    expect(runs.length).toBeLessThanOrEqual(2)
  })

  it("a sweep's hint leaves a key's waiting hint where it is, and adds one where none waits", async () => {
    const config = await freshConfig()
    const change = createKeyPublisher(js, config)
    const sweep = createSweepPublisher(js, config)
    const hot = { kind: 'Widget', namespace: 'ns', name: 'hot' }
    const other = { kind: 'Widget', namespace: 'ns', name: 'other' }
    const quiet = { kind: 'Widget', namespace: 'ns', name: 'quiet' }
    await change(hot)
    await change(other)
    await sweep(hot)
    await sweep(quiet)
    const sequenceOf = async (key: ObjectKey) =>
      (
        await jsm.streams.getMessage(config.stream, {
          last_by_subj: keySubject(config.subjectPrefix, key),
        })
      )?.seq
    // Still first in line: a re-publish would have put it behind `other`.
    expect(await sequenceOf(hot)).toBe(1)
    expect(await sequenceOf(quiet)).toBe(3)
    expect((await jsm.streams.info(config.stream)).state.messages).toBe(3)
  })

  it('delays redelivery with nak(delay) for requeueAfter', async () => {
    const config = await freshConfig()
    const { controller, runs } = counting(async (key, n) =>
      key.name === 'later' && n === 1 ? { requeueAfterMs: 3000 } : {},
    )
    const settled = await worker(config, controller)
    const publish = createKeyPublisher(js, config)
    await publish({ kind: 'Widget', namespace: 'ns', name: 'later' })
    await waitFor('the requeue', () => settled.some((s) => s.outcome?.type === 'requeue'))
    // Published after the nak, yet reconciled before the delayed redelivery.
    await publish({ kind: 'Widget', namespace: 'ns', name: 'now' })
    await waitFor('the redelivery', () => runs.filter((r) => r.key === 'later').length === 2)
    expect(runs.map((r) => r.key)).toEqual(['later', 'now', 'later'])
    const redelivered = settled.filter((s) => s.key?.name === 'later')
    expect(redelivered.map((s) => s.deliveryCount)).toEqual([1, 2])
  })

  it('files a poison message in the dead-letter subject with its reason', async () => {
    const config = await freshConfig({ maxDeliver: 3 })
    const { controller, runs } = counting(async () => {
      throw new TransientError('the provider rejects this forever', {
        reason: 'ProviderRejects',
        retryAfterMs: 50,
      })
    })
    await worker(config, controller)
    const key = { kind: 'Widget', namespace: 'ns', name: 'poison' }
    await createKeyPublisher(js, config)(key)
    await js.publish(`${config.subjectPrefix}.not-a-key`, 'garbage')

    const stored = await waitFor('two dead letters', async () => {
      const info = await jsm.streams.info(config.deadLetterStream)
      return info.state.messages === 2 && info.state.messages
    })
    expect(stored).toBe(2)
    const poisoned = await jsm.streams.getMessage(config.deadLetterStream, {
      last_by_subj: `${config.deadLetterPrefix}.Widget.ns.poison`,
    })
    expect(poisoned?.header.get(deadLetterHeaders.reason)).toBe('ProviderRejects')
    expect(poisoned?.header.get(deadLetterHeaders.subject)).toBe(
      keySubject(config.subjectPrefix, key),
    )
    expect(poisoned?.header.get(deadLetterHeaders.deliveries)).toBe('3')
    const garbage = await jsm.streams.getMessage(config.deadLetterStream, {
      last_by_subj: `${config.deadLetterPrefix}.not-a-key`,
    })
    expect(garbage?.header.get(deadLetterHeaders.reason)).toBe('InvalidSubject')
    expect(runs).toHaveLength(3)
    await waitFor('work queue empty', () => drained(config))
  })

  it('converges an object end to end through the watch bridge and the worker', async () => {
    const config = await freshConfig()
    const namespace = await testNamespace(kc, 'js-bridge')
    await worker(config, widgetController())
    await startBridge(config, namespace)
    await kube.create(widgetType, widget(namespace, 'via-nats', 2))
    await waitFor('converged through NATS', () => converged(kube, namespace, 'via-nats'))
  })
})

describe('JetStream: a run and its own writes', () => {
  it("holds a wake by the run's own status write until its backoff, and runs at once for a user's change", async () => {
    const config = await freshConfig()
    const namespace = await testNamespace(kc, 'js-self')
    const runs: Array<{ replicas: unknown }> = []
    // Each run writes its status, then fails: the status write comes back as a hint for the
    // same object, which must wait for the minute of backoff instead of running.
    const failing: Controller = {
      kind: 'Widget',
      resource: widgetType,
      async reconcile(deps, key) {
        const ref = { namespace: key.namespace, name: key.name }
        const current = await deps.kube.get(widgetType, ref)
        runs.push({ replicas: (current?.spec as { replicas?: number })?.replicas })
        await deps.kube.mergePatch(
          widgetType,
          ref,
          { status: { attempts: runs.length } },
          {
            subresource: 'status',
          },
        )
        throw new TransientError('the world is not ready', { reason: 'NotReady' })
      },
    }
    const w = await startJetStreamWorker({
      js,
      config,
      runner: createRunner({
        controllers: [failing],
        deps: testDeps(kube),
        backoff: { baseMs: 60_000, maxMs: 60_000, jitter: 0 },
      }),
      log: silentLogger(),
    })
    onTestFinished(() => w.stop())
    await startBridge(config, namespace)
    await kube.create(widgetType, widget(namespace, 'failing', 1))
    await waitFor('the first run', () => runs.length >= 1)
    // The status write's hint arrives within milliseconds; woken by it, this ran ~10 times a second.
    await waitFor('the status write seen', async () => {
      const w = await kube.get(widgetType, { namespace, name: 'failing' })
      return (w?.status as { attempts?: number } | undefined)?.attempts === 1
    })
    await new Promise((resolve) => setTimeout(resolve, 2000))
    expect(runs).toHaveLength(1)
    // A change by someone else cuts the minute short.
    await kube.mergePatch(widgetType, { namespace, name: 'failing' }, { spec: { replicas: 2 } })
    await waitFor('a run of the changed spec', () => runs.some((r) => r.replicas === 2), {
      timeoutMs: 30_000,
    })
  })
})

describe('JetStream max deliveries', () => {
  it('dead-letters a message that no worker ever settles once the server stops delivering it', async () => {
    const config = await freshConfig({ ackWaitMs: 300, serverMaxDeliver: 2 })
    const stop = watchMaxDeliveries({ nc, js, jsm, config, log: silentLogger() })
    onTestFinished(stop)
    await createKeyPublisher(js, config)({ kind: 'Widget', namespace: 'ns', name: 'crasher' })
    // A worker that dies mid-reconcile: it takes the message and never acks or naks.
    const consumer = await js.consumers.get(config.stream, config.consumer)
    for (let i = 0; i < 2; i++) await consumer.next({ expires: 5000 })
    // The server notices the exhausted message (and sends the advisory) when it would redeliver.
    expect(await consumer.next({ expires: 1500 })).toBeNull()
    const letter = await waitFor('the dead letter', async () => {
      const subject = `${config.deadLetterPrefix}.Widget.ns.crasher`
      return (
        (await jsm.streams
          .getMessage(config.deadLetterStream, { last_by_subj: subject })
          .catch(() => null)) ?? false
      )
    })
    expect(letter.header.get(deadLetterHeaders.reason)).toBe('MaxDeliveries')
    await waitFor(
      'removed from the work queue',
      async () => (await jsm.streams.info(config.stream)).state.messages === 0,
    )
  })
})
