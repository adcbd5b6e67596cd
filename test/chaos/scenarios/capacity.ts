/**
 * @module Scenario "capacity" (issue 28): a MachineSet of a MachineClass with three instance types
 * over three zones (nine offerings) while five of the offerings (seeded, among the six of the two
 * preferred types, which launches try first) flap between capacity and
 * InsufficientInstanceCapacity every few seconds, the worker process is killed and restarted at
 * seeded moments, and the set is scaled down to a third and back up, twice. The launches fall back over the
 * offerings and share the class's memory of misses (status.unavailableOfferings, a short TTL here);
 * then the flapping and the kills stop, everything converges and is deleted. Counts as every aws
 * scenario (no duplicate instance, no orphan, nothing stuck or lost) and two EC2 bounds:
 *
 * - misses (RunInstances answered InsufficientInstanceCapacity) <= flapping offerings x worker
 *   concurrency x (memory windows + times each went out): a miss is remembered for the TTL by every
 *   worker, so only the reconciles that read the class before it was written (at most the worker's
 *   concurrency) can miss the same offering again within one window; kills do not reset it.
 * - RunInstances requests <= Machines the scale schedule creates + misses + kills x concurrency:
 *   each Machine launches once, each miss is one request (the SDK does not retry it), and a create
 *   the kill cut short is sent again (with its ClientToken, which returns the first instance).
 *   Every term comes from the scenario's inputs and the faults it injected, not from what the
 *   worker launched, so a Machine launched twice, or relaunched in a loop, breaks it.
 *
 * With CHAOS_EC2_LAG_MS (lib/aws-world.ts) the same run meets EC2's eventual consistency.
 */
import { tmpdir } from 'node:os'
import { machineApiTypes } from '../../../src/api/resource-types'
import { uniqueName } from '../../harness/kube'
import { type RunAudit, startAudit } from '../lib/audit'
import { type AwsWorld, startAwsWorld } from '../lib/aws-world'
import { capacityRunBound, machinesCreated } from '../lib/cloud-bounds'
import {
  createMachineSet,
  scaleMachineSet,
  waitForNoMachines,
  waitForRunning,
} from '../lib/cloud-fleet'
import { type ChaosEnvironment, startChaosEnvironment } from '../lib/environment'
import {
  createFlexClass,
  flexTypes,
  type OfferingFaults,
  startOfferingFaults,
} from '../lib/offering-faults'
import { type Random, seededRandom } from '../lib/random'
import {
  type Scenario,
  type ScenarioOptions,
  type ScenarioReport,
  stopwatch,
} from '../lib/scenario'
import { type WorkerProcess, workerProcess } from '../lib/worker-process'

const sizes = {
  short: {
    replicas: 6,
    faultMs: 30_000,
    flipMs: 5_000,
    killMs: [8_000, 14_000],
    convergeMs: 120_000,
  },
  full: {
    replicas: 30,
    faultMs: 150_000,
    flipMs: 8_000,
    killMs: [15_000, 30_000],
    convergeMs: 300_000,
  },
}
/** Offerings that flap (of nine): more than half. */
const flapping = 5
/** The class's memory of a miss, in seconds. */
const ttlSeconds = 6
/** Reconciles at once in the worker (its CONCURRENCY default). */
const concurrency = 8
const set = 'flex'

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The replicas the set is scaled to after it is created: down to a third and back, twice. */
function churn(replicas: number): number[] {
  const third = Math.ceil(replicas / 3)
  return [third, replicas, third, replicas]
}

/** Flips the flapping offerings (each out with probability 1/2) every `flipMs` until `until`. */
async function flap(
  faults: OfferingFaults,
  chosen: string[],
  o: { random: Random; flipMs: number; until: number },
): Promise<number> {
  let wentOut = chosen.length
  faults.set(chosen)
  while (Date.now() + o.flipMs < o.until) {
    await sleep(o.flipMs)
    const before = faults.out()
    const next = chosen.filter(() => o.random.chance(0.5))
    wentOut += next.filter((x) => !before.has(x)).length
    faults.set(next)
  }
  return wentOut
}

/** Kills and restarts the worker at seeded moments until `until`; the number of kills. */
async function killLoop(
  worker: WorkerProcess,
  o: { random: Random; killMs: number[]; until: number },
): Promise<number> {
  let kills = 0
  for (;;) {
    const wait = o.random.int(o.killMs[0] ?? 10_000, o.killMs[1] ?? 20_000)
    if (Date.now() + wait >= o.until) return kills
    await sleep(wait)
    await worker.kill()
    kills++
    await worker.start()
  }
}

async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const size = sizes[options.size]
  const random = seededRandom(options.seed)
  const namespace = uniqueName('chaos-capacity')
  const since = stopwatch()
  let env: ChaosEnvironment | undefined
  let world: AwsWorld | undefined
  let worker: WorkerProcess | undefined
  let audit: RunAudit | undefined
  try {
    env = await startChaosEnvironment({ shared: options.shared })
    world = await startAwsWorld({
      kc: env.kc,
      kubeconfigPath: env.kubeconfigPath,
      namespace,
      faults: true,
    })
    const { kube, proxy } = world
    if (!proxy) throw new Error('the fault proxy did not start')
    await createFlexClass(kube, { namespace, name: set }, `${ttlSeconds}s`)
    const faults = await startOfferingFaults(proxy, world.ec2)
    const preferred = faults.offerings.filter((o) => !o.startsWith(flexTypes.at(-1) ?? ''))
    const chosen = random.shuffle(preferred).slice(0, flapping)
    worker = workerProcess({
      env: { ...world.workerEnv, SWEEP_PERIOD_SECONDS: '15', CONCURRENCY: String(concurrency) },
      logDir: tmpdir(),
      name: namespace,
    })
    await worker.start()
    audit = startAudit({ kube, ec2: world.ec2, namespace })
    await audit.ready
    options.log(`set up in ${since()} s; flapping: ${chosen.join(', ')}`)

    const faultsFrom = Date.now()
    const until = faultsFrom + size.faultMs
    const flapped = flap(faults, chosen, { random: seededRandom(options.seed + 1), ...size, until })
    const killed = killLoop(worker, { random: seededRandom(options.seed + 2), ...size, until })
    audit.intents.want(set, size.replicas)
    await createMachineSet(
      kube,
      { namespace, name: set },
      { className: set, replicas: size.replicas },
    )
    // Churn under the faults: two thirds of the set go and come back, twice.
    const schedule = churn(size.replicas)
    for (const replicas of schedule) {
      await sleep(size.faultMs / 5)
      audit.intents.want(set, replicas)
      await scaleMachineSet(kube, { namespace, name: set }, replicas)
    }
    const wentOut = await flapped
    const kills = await killed
    faults.set([])
    const faultSeconds = (Date.now() - faultsFrom) / 1000
    const calls = proxy.counts()
    const misses = faults.misses()
    options.log(`faults off after ${Math.round(faultSeconds)} s: ${kills} kills, ${misses} misses`)

    const clearedAt = Date.now()
    const converged = await waitForRunning(
      kube,
      { namespace, set, count: size.replicas },
      size.convergeMs,
    )
    const convergeSeconds = (Date.now() - clearedAt) / 1000
    const fleet = await audit.checkpoint()
    const callsAtConvergence = proxy.counts()
    options.log(`converged ${converged} ${Math.round(convergeSeconds)} s after (at ${since()} s)`)

    audit.intents.want(set, 0)
    await kube.delete(machineApiTypes.machineSet, { namespace, name: set })
    const drained = await waitForNoMachines(kube, namespace, size.convergeMs)
    const counts = await audit.count()
    options.log(`deleted everything by ${since()} s: ${JSON.stringify(counts)}`)

    const windows = Math.ceil(faultSeconds / ttlSeconds)
    const missBound = flapping * concurrency * (windows + wentOut)
    const launched = counts.breakdown.instancesLaunched
    const runInstances = callsAtConvergence.RunInstances ?? 0
    const created = machinesCreated(size.replicas, schedule)
    const runBound = capacityRunBound({ machines: created, misses, kills, concurrency })
    const boundBroken = (misses > missBound ? 1 : 0) + (runInstances > runBound ? 1 : 0)
    return {
      id: capacityScenario.id,
      title: capacityScenario.title,
      seed: options.seed,
      runs: counts.breakdown.machinesSeen,
      faultsInjected: misses + kills,
      duplicates: counts.duplicates,
      orphans: counts.orphans,
      stuck:
        fleet.notRunning.length +
        fleet.wrongCount.length +
        (converged ? 0 : 1) +
        boundBroken +
        (drained ? 0 : 1),
      lost: counts.lost,
      details: {
        flapping: chosen,
        faultSeconds: Math.round(faultSeconds),
        kills,
        offeringsWentOut: wentOut,
        misses,
        missBound,
        runInstances,
        runInstancesBound: runBound,
        machinesCreated: created,
        instancesLaunched: launched,
        ec2Lag: world.lag ?? 'off',
        lagInjected: proxy.injected(),
        ec2RequestsUnderFaults: sum(calls),
        ec2RequestsToConvergence: sum(callsAtConvergence),
        ec2RequestsPerMachine:
          Math.round((sum(callsAtConvergence) / Math.max(1, counts.breakdown.machinesSeen)) * 10) /
          10,
        callsToConvergence: callsAtConvergence,
        convergeSecondsAfterFaults: Math.round(convergeSeconds),
        audit: counts.breakdown,
        notRunning: fleet.notRunning,
        wrongCount: fleet.wrongCount,
        workerStarts: worker.starts,
      },
    }
  } finally {
    await audit?.stop()
    await worker?.stop()
    await world?.stop()
    await env?.close()
  }
}

export const capacityScenario: Scenario = {
  id: 'capacity',
  title: 'capacity: 5 of 9 offerings flapping without capacity, worker kills, scale churn',
  fullOnly: true,
  run,
}
