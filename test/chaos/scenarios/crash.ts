/**
 * @module Chaos scenario "crash": the reconcile worker (dist/worker.js, aws provider on moto,
 * in-process bus) is SIGKILLed at seeded moments while MachineSets are created, scaled and deleted,
 * half of the kills aimed at a held create claim or a deletion in progress, and restarted each
 * time. After the last restart the fleet must converge within two sweep periods with no duplicate
 * instance, no orphan instance or Node, and no Machine stuck.
 */

import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { KubeClient } from '../../../src/kube/kube-client'
import { takenClaimHoldMs } from '../../../src/reconcile/machine/deletion'
import { waitFor } from '../../harness/kube'
import { startAudit } from '../lib/audit'
import type { AwsWorld } from '../lib/aws-world'
import { startAwsWorld } from '../lib/aws-world'
import { waitForConvergence } from '../lib/converge-wait'
import { applyCycle, describeCycle, nextCycle } from '../lib/crash-cycles'
import { type InFlight, inFlight, waitForMidReconcile } from '../lib/crash-in-flight'
import { crashReport } from '../lib/crash-report'
import { tearDownFleet } from '../lib/crash-teardown'
import { startChaosEnvironment } from '../lib/environment'
import { type Random, seededRandom } from '../lib/random'
import type { Scenario, ScenarioOptions, ScenarioReport } from '../lib/scenario'
import { type WorkerProcess, workerProcess } from '../lib/worker-process'

const sizes = {
  short: { cycles: 4, maxSets: 2, sweepSeconds: 8 },
  full: { cycles: 100, maxSets: 4, sweepSeconds: 8 },
}
type Size = (typeof sizes)[keyof typeof sizes]

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const crashScenario: Scenario = {
  id: 'crash',
  title: 'worker SIGKILLed during MachineSet create/scale/delete cycles',
  async run(options) {
    const started = Date.now()
    const log = (message: string) =>
      options.log(`${((Date.now() - started) / 1000).toFixed(1)}s ${message}`)
    const env = await startChaosEnvironment({ shared: options.shared })
    try {
      const namespace = `chaos-crash-${options.seed}-${Date.now() % 10_000}`
      const world = await startAwsWorld({
        kc: env.kc,
        kubeconfigPath: env.kubeconfigPath,
        namespace,
      })
      try {
        log(`environment ready; namespace ${namespace}`)
        return await crashCycles(options, world, log)
      } finally {
        await world.stop()
      }
    } finally {
      await env.close()
    }
  },
}

async function crashCycles(
  options: ScenarioOptions,
  world: AwsWorld,
  log: (message: string) => void,
): Promise<ScenarioReport> {
  const size: Size = sizes[options.size]
  const random = seededRandom(options.seed)
  const { kube, ec2, namespace } = world
  const logDir = mkdtempSync(join(tmpdir(), 'chaos-crash-'))
  const worker = workerProcess({
    env: { ...world.workerEnv, BUS: 'in-process', SWEEP_PERIOD_SECONDS: String(size.sweepSeconds) },
    logDir,
  })
  log(`worker logs in ${logDir}`)
  const kills: InFlight[] = []
  const restartMs: number[] = []
  const sets = new Map<string, number>()
  const audit = startAudit({ kube, ec2, namespace })
  await audit.ready
  // The snapshot is taken once the process is gone: it shows exactly what the kill interrupted.
  const killAndRestart = async (): Promise<InFlight> => {
    await worker.kill()
    const state = await inFlight(kube, namespace, ec2)
    kills.push(state)
    await restartPause(random)
    const t = Date.now()
    await startReady(worker)
    restartMs.push(Date.now() - t)
    return state
  }
  try {
    await startReady(worker)
    for (let i = 0; i < size.cycles; i++) {
      const cycle = nextCycle(random, sets, i, size.maxSets)
      const grows = cycle.type !== 'delete' && cycle.replicas > (sets.get(cycle.name) ?? 0)
      await applyCycle(kube, namespace, sets, cycle, audit.intents)
      if (random.chance(0.2)) {
        log(`cycle ${i}: ${describeCycle(cycle)}; no kill`)
        await sleep(random.int(200, 1500))
        continue
      }
      const aim = await strike({ random, worker, kube, namespace, grows })
      const state = await killAndRestart()
      log(`cycle ${i}: ${describeCycle(cycle)}; kill (${aim}) ${show(state)}`)
    }
    // The last fault is a restart: convergence is measured from it.
    await killAndRestart()
    // Two sweeps, plus the hold of a deletion that took over a killed create's claim (deletion.ts).
    const boundMs = 2 * size.sweepSeconds * 1000 + takenClaimHoldMs
    const bounded = await waitForConvergence({ kube, ec2, namespace, timeoutMs: boundMs })
    log(`${bounded.waitedMs} ms after the last restart: ${JSON.stringify(bounded.audit)}`)
    // Stuck is judged at the bound; a longer wait tells whether it converges at all.
    const final = bounded.converged
      ? bounded
      : await waitForConvergence({ kube, ec2, namespace, timeoutMs: 90_000 })
    if (!bounded.converged) {
      log(`converged=${final.converged} after another ${final.waitedMs} ms`)
      log(worker.tail(30))
    }
    // Missing Machines and Machines without their instance are judged at the end of the wait.
    await audit.checkpoint()
    for (const name of sets.keys()) audit.intents.want(name, 0)
    const teardown = await tearDownFleet({ kube, ec2, namespace })
    log(`teardown: ${JSON.stringify(teardown)}`)
    const counts = await audit.count()
    log(`audit: ${JSON.stringify(counts)}`)
    return crashReport({
      title: crashScenario.title,
      seed: options.seed,
      cycles: size.cycles,
      kills,
      restartMs,
      boundMs,
      bounded,
      final,
      teardown,
      counts,
    })
  } finally {
    await audit.stop()
    await stopWorker(worker)
  }
}

/**
 * Waits for the moment of the next kill: when the change adds Machines, right after the worker logs
 * that it launches an instance (the kill then lands around RunInstances, before the providerID
 * write); when it removes some, right after a deletion shows up; or, half the time, at a random
 * moment after the change, busy or not.
 */
async function strike(options: {
  random: Random
  worker: WorkerProcess
  kube: KubeClient
  namespace: string
  grows: boolean
}): Promise<string> {
  const { random, worker } = options
  if (random.chance(0.5)) {
    await sleep(random.int(0, 2500))
    return 'random'
  }
  if (!options.grows) {
    await waitForMidReconcile(options.kube, options.namespace, 6000)
    await sleep(random.int(0, 400))
    return 'mid-delete'
  }
  // Half the launch kills aim at a launch group: before its call, during it, or between the
  // call and the members' claims, as the delay falls.
  const group = random.chance(0.5)
  await worker.waitForLog(group ? 'launching group' : 'launching EC2 instance', 6000)
  await sleep(random.int(0, 400))
  return group ? 'group launch' : 'after launch'
}

/** Half the restarts are immediate; the rest leave the fleet unattended for a moment. */
async function restartPause(random: Random) {
  if (random.chance(0.5)) await sleep(random.int(0, 1500))
}

/** Starts the worker and waits until its watches run, so each life gets work done before a kill. */
async function startReady(worker: WorkerProcess) {
  await worker.start()
  await waitFor('worker ready', () => worker.ready(), { intervalMs: 100, timeoutMs: 60_000 })
}

async function stopWorker(worker: WorkerProcess) {
  await worker.stop().catch(() => {})
}

function show(state: InFlight): string {
  return `(provisioning ${state.provisioning}, claimed ${state.claimed}, launched-unrecorded ${state.launchedUnrecorded}, group-unclaimed ${state.groupUnclaimed}, deleting ${state.deleting})`
}
