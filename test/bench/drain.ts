/**
 * Benchmark "drain": a kwok Machine whose Node runs 110 pods (three Deployments and some bare
 * pods, no PodDisruptionBudget) is deleted with the real Machine controller running in-process;
 * timed until the Node has no pods left and until the Machine is gone. The limit is a tight client
 * that cordons an identical Node, evicts the same 110 pods with the controller's concurrency (10
 * in flight) and waits until they are gone.
 */

import { machineApiTypes } from '../../src/api/resource-types'
import type { Machine } from '../../src/api/v1beta1/machine'
import { startInProcessBus } from '../../src/bus/in-process-bus'
import { machineApiMappers, watchedTypes } from '../../src/bus/machine-api-mappers'
import { systemClock } from '../../src/clock'
import type { KubeClient } from '../../src/kube/kube-client'
import { coreTypes, type KubeObject, type ResourceType } from '../../src/kube/resource'
import { silentLogger } from '../../src/observability/logger'
import { createKwokProvider } from '../../src/providers/kwok/provider'
import { createProviderRegistry } from '../../src/providers/registry'
import { createClaimHolder, processSelf } from '../../src/reconcile/machine/claim-holder'
import type { MachineDeps } from '../../src/reconcile/machine/machine-deps'
import { machineController } from '../../src/reconcile/machine/reconcile'
import { createRunner } from '../../src/reconcile/runtime/runner'
import { realTimers } from '../../src/timers'
import { waitFor } from '../harness/kube'
import type { Bench, BenchEnv } from './lib/bench'
import { measurement } from './lib/measurement'
import { installBenchApi } from './lib/webhook-api'

const PODS = 110
/** Deployment sizes; the rest of PODS are bare pods bound to the Node by name. */
const DEPLOYMENTS = [40, 40, 20]
const POLL_MS = 100
const deploymentType: ResourceType = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  plural: 'deployments',
  namespaced: true,
}

export const drainBench: Bench = {
  id: 'drain',
  title: `Machine deletion: drain of a Node with ${PODS} pods, and the Machine gone`,
  async run(env) {
    const api = await installBenchApi(env.controlPlane)
    const stopController = await startMachineController(api.kube)
    const drained: number[] = []
    const gone: number[] = []
    const tight: number[] = []
    const tightEvict: number[] = []
    try {
      for (let run = 0; run < env.options.runs; run++) {
        const sample = await oneRun(env, api.kube, `bench-drain-${run}`)
        drained.push(sample.drainedMs)
        gone.push(sample.goneMs)
        tight.push(sample.tightMs)
        tightEvict.push(sample.tightEvictMs)
        env.log(
          `run ${run + 1}: drained ${Math.round(sample.drainedMs)} ms, Machine gone ${Math.round(sample.goneMs)} ms, tight client ${Math.round(sample.tightMs)} ms (evictions ${Math.round(sample.tightEvictMs)} ms)`,
        )
      }
    } finally {
      await stopController()
      await api.close()
    }
    const limit = { name: 'tight client: cordon, evict 10 at a time, wait', samples: tight }
    return {
      id: 'drain',
      title: drainBench.title,
      measurements: [
        measurement(`Machine deleted -> ${PODS} pods gone from its Node`, 'ms', drained, limit),
        measurement('Machine deleted -> Machine gone', 'ms', gone, limit),
      ],
      details: { pods: PODS, deployments: DEPLOYMENTS, drained, gone, tight, tightEvict },
    }
  },
}

/** The Machine controller with its production settings, on the in-process bus. */
async function startMachineController(kube: KubeClient): Promise<() => Promise<void>> {
  const providers = createProviderRegistry([createKwokProvider()])
  const deps: MachineDeps = {
    kube,
    clock: systemClock,
    log: silentLogger(),
    fieldManager: 'machine-api-bench',
    providers,
    claimHolder: createClaimHolder(processSelf(process.env)),
  }
  const controllers = [machineController]
  const bus = startInProcessBus({
    kube,
    runner: createRunner({ controllers, deps }),
    reconciled: [machineApiTypes.machine],
    watched: watchedTypes(controllers),
    mappers: machineApiMappers(['Machine']),
    timers: realTimers(),
    log: deps.log,
    concurrency: 8,
    sweepPeriodMs: 300_000,
  })
  await bus.ready()
  return () => bus.stop()
}

async function oneRun(env: BenchEnv, kube: KubeClient, namespace: string) {
  await kube.create(coreTypes.namespace, { metadata: { name: namespace } } as KubeObject)
  const [measured, reference] = await Promise.all([
    runningMachine(kube, namespace, 'measured'),
    runningMachine(kube, namespace, 'reference'),
  ])
  await Promise.all([
    fillNode(kube, namespace, measured, 'm'),
    fillNode(kube, namespace, reference, 'r'),
  ])
  env.log(`${namespace}: two Nodes with ${PODS} running pods each`)

  const tight = await tightDrain(kube, reference)
  await kube.delete(machineApiTypes.machine, { namespace, name: 'reference' })

  const started = performance.now()
  await kube.delete(machineApiTypes.machine, { namespace, name: 'measured' })
  await poll(`${measured} drained`, async () => (await podsOn(kube, measured)).length === 0)
  const drainedMs = performance.now() - started
  await poll('Machine measured gone', async () => {
    return (await kube.get(machineApiTypes.machine, { namespace, name: 'measured' })) === undefined
  })
  const goneMs = performance.now() - started
  await kube.delete(coreTypes.namespace, { name: namespace })
  return { drainedMs, goneMs, tightMs: tight.ms, tightEvictMs: tight.evictMs }
}

/** Creates a kwok Machine and resolves with its Node name once it is Running. */
async function runningMachine(kube: KubeClient, namespace: string, name: string): Promise<string> {
  const machine: Machine = {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: { namespace, name },
    spec: {
      providerSpec: { provider: 'kwok', value: { allocatable: { pods: String(PODS + 10) } } },
      nodeDeletionTimeout: '10s',
    },
  }
  await kube.create(machineApiTypes.machine, machine as KubeObject)
  return await waitFor(
    `Machine ${name} Running`,
    async () => {
      const m = await kube.get<Machine & KubeObject>(machineApiTypes.machine, { namespace, name })
      return m?.status?.phase === 'Running' && m.status.nodeRef?.name
    },
    { timeoutMs: 120_000 },
  )
}

/** 110 pods on `nodeName`: Deployments pinned by hostname, bare pods bound by name. */
async function fillNode(kube: KubeClient, namespace: string, nodeName: string, prefix: string) {
  const container = [{ name: 'c', image: 'registry.example/app:1' }]
  for (const [i, replicas] of DEPLOYMENTS.entries()) {
    const app = `${prefix}-app-${i}`
    await kube.create(deploymentType, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { namespace, name: app },
      spec: {
        replicas,
        selector: { matchLabels: { app } },
        template: {
          metadata: { labels: { app } },
          spec: { nodeSelector: { 'kubernetes.io/hostname': nodeName }, containers: container },
        },
      },
    } as KubeObject)
  }
  const bare = PODS - DEPLOYMENTS.reduce((a, b) => a + b, 0)
  for (let i = 0; i < bare; i++) {
    await kube.create(coreTypes.pod, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace, name: `${prefix}-bare-${i}` },
      spec: { nodeName, containers: container },
    } as KubeObject)
  }
  await waitFor(
    `${PODS} pods running on ${nodeName}`,
    async () => {
      const pods = await podsOn(kube, nodeName)
      return pods.filter((p) => podPhase(p) === 'Running').length === PODS
    },
    { timeoutMs: 180_000, intervalMs: 500 },
  )
}

/**
 * The limit: cordon, evict every pod (10 in flight, as the drain pass does), wait until none is
 * left on the Node. `evictMs` is
 * the part spent in eviction calls, the rest is kwok and the apiserver finishing the deletions.
 */
async function tightDrain(kube: KubeClient, nodeName: string) {
  const started = performance.now()
  await kube.mergePatch(coreTypes.node, { name: nodeName }, { spec: { unschedulable: true } })
  const pods = await podsOn(kube, nodeName)
  const lane = async () => {
    for (let pod = pods.pop(); pod; pod = pods.pop()) {
      await kube.evict({ namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' })
    }
  }
  await Promise.all(Array.from({ length: 10 }, lane))
  const evictMs = performance.now() - started
  await poll(`${nodeName} drained by the tight client`, async () => {
    return (await podsOn(kube, nodeName)).length === 0
  })
  return { ms: performance.now() - started, evictMs }
}

async function podsOn(kube: KubeClient, nodeName: string): Promise<KubeObject[]> {
  const page = await kube.list<KubeObject>(coreTypes.pod, {
    fieldSelector: `spec.nodeName=${nodeName}`,
  })
  return page.items
}

function podPhase(pod: KubeObject): string | undefined {
  return (pod as { status?: { phase?: string } }).status?.phase
}

async function poll(description: string, probe: () => Promise<boolean>): Promise<void> {
  await waitFor(description, probe, { timeoutMs: 300_000, intervalMs: POLL_MS })
}
