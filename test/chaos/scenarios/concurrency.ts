/**
 * @module Scenario 5, concurrency: three worker replicas on one JetStream consumer (one of them
 * also runs the watch bridge) plus the one-shot sweep (`dist/sweep.js`, publishing every key
 * again) over and over, all while a MachineSet scales 0 -> N -> 0 in seeded steps on moto. Every
 * reconcile may run on any replica, concurrently with another of the same key; still no Machine
 * may be created twice for one replica slot and no Machine may get two instances.
 */
import { tmpdir } from 'node:os'
import { machineApiTypes } from '../../../src/api/resource-types'
import { type InstalledApi, installApi } from '../../harness/install-api'
import { uniqueName } from '../../harness/kube'
import { type NatsServer, startNatsServer } from '../../harness/nats/nats-server'
import { type RunAudit, startAudit } from '../lib/audit'
import { type AwsWorld, chaosClassName, startAwsWorld } from '../lib/aws-world'
import {
  createMachineSet,
  machinesOf,
  scaleMachineSet,
  waitForNoMachines,
  waitForRunning,
} from '../lib/cloud-fleet'
import { type ChaosEnvironment, startChaosEnvironment } from '../lib/environment'
import { startWebhookChild, type WebhookChild } from '../lib/invalid-webhook'
import { sweepRepeatedly } from '../lib/jetstream-sweep'
import { type Random, seededRandom } from '../lib/random'
import {
  type Scenario,
  type ScenarioOptions,
  type ScenarioReport,
  stopwatch,
} from '../lib/scenario'
import { type WorkerProcess, workerProcess } from '../lib/worker-process'

const sizes = {
  short: { replicas: 10, steps: 2, convergeMs: 60_000, nodePeriodMs: 500, webhookChild: false },
  // The node simulator shares the scenario's process with the webhook server: describing 100
  // instances every 500 ms would starve admission (5 s timeout) on two loaded cores.
  full: { replicas: 100, steps: 4, convergeMs: 300_000, nodePeriodMs: 2000, webhookChild: true },
}
const workerCount = 3
const set = 'fleet'

/** Seeded intermediate targets from `from` to `to` (both ends included, `steps` moves). */
function scalePath(random: Random, from: number, to: number, steps: number): number[] {
  const points = new Set<number>()
  const low = Math.min(from, to)
  const high = Math.max(from, to)
  while (points.size < steps - 1 && high - low > steps) points.add(random.int(low + 1, high - 1))
  const sorted = [...points].sort((a, b) => a - b)
  return [...(from < to ? sorted : sorted.reverse()), to]
}

/** Reconciles per replica and kind, from the runner's duration histogram. */
async function reconcileCounts(workers: readonly WorkerProcess[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const [index, worker] of workers.entries()) {
    const text = await worker.metrics().catch(() => '')
    for (const line of text.split('\n')) {
      const match = /^machine_api_reconcile_duration_seconds_count\{([^}]*)\} (\d+)/.exec(line)
      const kind = /kind="([^"]+)"/.exec(match?.[1] ?? '')?.[1]
      if (!match || !kind) continue
      const key = `worker-${index}/${kind}`
      counts[key] = (counts[key] ?? 0) + Number(match[2])
    }
  }
  return counts
}

/** Scales through `path`, a random pause between steps, tracking the most Machines seen at once. */
async function scaleThrough(
  world: AwsWorld,
  audit: RunAudit,
  path: readonly number[],
  random: Random,
  seen: { most: number },
): Promise<void> {
  for (const target of path) {
    audit.intents.want(set, target)
    await scaleMachineSet(world.kube, { namespace: world.namespace, name: set }, target)
    const until = Date.now() + random.int(500, 3000)
    while (Date.now() < until) {
      const machines = await machinesOf(world.kube, world.namespace, set)
      seen.most = Math.max(seen.most, machines.length)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}

async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const size = sizes[options.size]
  const random = seededRandom(options.seed)
  const namespace = uniqueName('chaos-concurrency')
  const since = stopwatch()
  let env: ChaosEnvironment | undefined
  let world: AwsWorld | undefined
  let nats: NatsServer | undefined
  const workers: WorkerProcess[] = []
  let sweeps: ReturnType<typeof sweepRepeatedly> | undefined
  let natsStarting: Promise<NatsServer> | undefined
  let webhook: WebhookChild | undefined
  let childApi: InstalledApi | undefined
  let audit: RunAudit | undefined
  try {
    // NATS starts while the control plane side comes up (two cores: every second counts).
    natsStarting = startNatsServer()
    natsStarting.then(
      (n) => {
        nats = n
      },
      () => {},
    )
    env = await startChaosEnvironment({ shared: options.shared })
    if (size.webhookChild) {
      // At 100 Machines, admission served from this busy process timed out (5 s) for minutes on
      // two loaded cores; the bundled webhook in its own process is what production runs anyway.
      webhook = await startWebhookChild({ kubeconfigPath: env.kubeconfigPath })
      childApi = await installApi(env.kc, webhook)
      await env.api.uninstall()
    }
    world = await startAwsWorld({
      kc: env.kc,
      kubeconfigPath: env.kubeconfigPath,
      namespace,
      nodePeriodMs: size.nodePeriodMs,
    })
    nats = await natsStarting
    const busEnv = { ...world.workerEnv, BUS: 'jetstream', NATS_URL: nats.url }
    for (let i = 0; i < workerCount; i++) {
      const worker = workerProcess({
        env: { ...busEnv, ...(i === 0 ? { WATCH_BRIDGE: '1' } : {}) },
        logDir: tmpdir(),
        name: `${namespace}-${i}`,
      })
      workers.push(worker)
    }
    // All at once: the replicas race to create the stream and the consumer too.
    await Promise.all(workers.map((w) => w.start()))
    audit = startAudit({ kube: world.kube, ec2: world.ec2, namespace })
    await audit.ready
    await createMachineSet(
      world.kube,
      { namespace, name: set },
      { className: chaosClassName, replicas: 0 },
    )
    sweeps = sweepRepeatedly({ env: busEnv, pauseMs: () => random.int(500, 2500) })

    const up = { most: 0 }
    const upPath = scalePath(random, 0, size.replicas, size.steps)
    options.log(`set up in ${since()} s`)
    options.log(`3 replicas + sweeps; scaling up through ${upPath.join(' -> ')}`)
    await scaleThrough(world, audit, upPath, random, up)
    const converged = await waitForRunning(
      world.kube,
      { namespace, set, count: size.replicas },
      size.convergeMs,
    )
    const fleet = await audit.checkpoint()
    options.log(`scaled up, converged ${converged} at ${since()} s`)

    const downPath = scalePath(random, size.replicas, 0, size.steps)
    options.log(`up: at most ${up.most} Machines at once; down through ${downPath.join(' -> ')}`)
    await scaleThrough(world, audit, downPath, random, { most: 0 })
    const drained = await waitForNoMachines(world.kube, namespace, size.convergeMs)
    options.log(`scaled down, drained ${drained} at ${since()} s`)
    const sweepRuns = await sweeps.stop()
    sweeps = undefined
    await world.kube.delete(machineApiTypes.machineSet, { namespace, name: set })
    const counts = await audit.count()
    const reconciles = await reconcileCounts(workers)
    const restarts = workers.reduce((n, w) => n + w.starts - 1, 0)
    options.log(`sweeps ${sweepRuns.runs} (${sweepRuns.failed} failed); ${JSON.stringify(counts)}`)
    return {
      id: concurrencyScenario.id,
      title: concurrencyScenario.title,
      seed: options.seed,
      runs: upPath.length + downPath.length,
      // Duplicate hints: every sweep re-publishes every key; two extra replicas compete.
      faultsInjected: sweepRuns.runs + workerCount - 1,
      // Machines created beyond the requests (a slot filled twice) and instances beyond one per
      // Machine (terminated included).
      duplicates: counts.duplicates,
      orphans: counts.orphans,
      stuck:
        (converged ? 0 : 1) +
        fleet.notRunning.length +
        fleet.wrongCount.length +
        sweepRuns.failed +
        restarts +
        (drained ? 0 : 1),
      lost: counts.lost,
      details: {
        audit: counts.breakdown,
        mostMachinesAtOnce: up.most,
        sweeps: sweepRuns,
        reconcilesPerReplica: reconciles,
        notRunning: fleet.notRunning,
        wrongCount: fleet.wrongCount,
      },
    }
  } finally {
    await audit?.stop()
    await natsStarting?.catch(() => undefined)
    await sweeps?.stop()
    for (const worker of workers) await worker.stop()
    await nats?.stop()
    await world?.stop()
    await childApi?.uninstall()
    await webhook?.stop()
    await env?.close()
  }
}

export const concurrencyScenario: Scenario = {
  id: 'concurrency',
  title: 'concurrency: 3 JetStream replicas + repeated sweeps during a scale 0 -> N -> 0',
  run,
}
