/**
 * @module scale-memory: the worker and the sweep function (the bundled dist/worker.js and
 * dist/sweep.js, as child processes) over a converged fleet of 10,000 kwok Machines (1,000 with
 * --quick) on a control plane without kcm, scheduler or kwok. Reports the worker's first sync,
 * its steady-state apiserver traffic over two whole sweep cycles (sweeps included) and peak RSS;
 * one sweep's wall time, peak RSS and requests; and the old in-process comparison of a paged
 * sweep with one unpaged list.
 */
import { coreTypes } from '../../src/kube/resource'
import { freePort } from '../harness/controlplane/free-port'
import { waitFor } from '../harness/kube'
import { scrapeRequestCounts } from './lib/apiserver-metrics'
import { byVerb, diffCounts, perUnit, totalOf } from './lib/apiserver-metrics-text'
import type { Bench, BenchEnv, Measurement } from './lib/bench'
import { deployedEnv } from './lib/deployed-env'
import { installFleetApi } from './lib/fleet-api'
import { countingKube } from './lib/fleet-kube'
import { startFunction } from './lib/fleet-process'
import { seedConvergedFleet } from './lib/fleet-seed'
import { pagedVersusUnpaged } from './lib/fleet-sweep-memory'
import { measurement } from './lib/measurement'
import { round } from './lib/stats'
import { measureSweepCycles } from './lib/sweep-cycles'

const namespace = 'scale'
const pageSize = 500

/** A Prometheus sample's value summed over its label sets (0 when absent). */
function metricSum(text: string, name: string, filter = ''): number {
  let sum = 0
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) && line.includes(filter)) sum += Number(line.split(' ').pop())
    else if (line.startsWith(`${name} `)) sum += Number(line.split(' ').pop())
  }
  return sum
}

/** Starts the worker and waits until its first sync is over (queue empty for 3 s after N reconciles). */
async function workerFigures(env: BenchEnv, childEnv: Record<string, string>, n: number) {
  const port = await freePort()
  const access = env.controlPlane
  const worker = startFunction('worker.js', [], { ...childEnv, PORT: String(port) })
  try {
    const before = await scrapeRequestCounts(access)
    const started = performance.now()
    let emptySince = 0
    await waitFor(
      'the worker to reconcile every Machine and empty its queue',
      async () => {
        const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
        const reconciled = metricSum(
          text,
          'machine_api_reconcile_duration_seconds_count',
          'kind="Machine"',
        )
        const depth = metricSum(text, 'machine_api_queue_depth')
        if (reconciled < n || depth > 0) {
          emptySince = 0
          return false
        }
        emptySince ||= performance.now()
        return performance.now() - emptySince >= 3000
      },
      { intervalMs: 500, timeoutMs: 1_200_000 },
    )
    const syncSeconds = (performance.now() - started - 3000) / 1000
    const sync = diffCounts(before, await scrapeRequestCounts(access))
    return { syncSeconds, sync, peakMb: worker.peakMb() }
  } finally {
    await worker.stop()
  }
}

/**
 * A second worker with the sweep every `periodMs`: once it has reconciled every Machine and seen
 * its queue empty, its own calls over `cycles` whole sweep cycles (sweeps and the quiet between).
 * Its own process, so the first sync above is measured at the default period as before.
 */
async function steadyStateFigures(
  env: BenchEnv,
  childEnv: Record<string, string>,
  n: number,
  steady: { cycles: number; periodMs: number },
) {
  const port = await freePort()
  const metricsUrl = `http://127.0.0.1:${port}/metrics`
  const worker = startFunction('worker.js', [], {
    ...childEnv,
    PORT: String(port),
    SWEEP_PERIOD_SECONDS: String(steady.periodMs / 1000),
  })
  try {
    await waitFor(
      'the steady-state worker to reconcile every Machine once',
      async () => {
        const text = await (await fetch(metricsUrl)).text()
        const reconciled = metricSum(
          text,
          'machine_api_reconcile_duration_seconds_count',
          'kind="Machine"',
        )
        return reconciled >= n && metricSum(text, 'machine_api_queue_depth') === 0
      },
      { intervalMs: 250, timeoutMs: 1_200_000 },
    )
    return await measureSweepCycles({ metricsUrl, access: env.controlPlane, ...steady })
  } finally {
    await worker.stop()
  }
}

/** Runs the sweep function once: wall time, peak RSS and the apiserver requests it made. */
async function sweepFigures(env: BenchEnv, childEnv: Record<string, string>) {
  const before = await scrapeRequestCounts(env.controlPlane)
  const started = performance.now()
  const sweep = startFunction('sweep.js', ['--orphans', 'off'], childEnv)
  await sweep.exited
  const seconds = (performance.now() - started) / 1000
  const requests = diffCounts(before, await scrapeRequestCounts(env.controlPlane))
  return { seconds, peakMb: sweep.peakMb(), requests }
}

export const scaleMemoryBench: Bench = {
  id: 'scale-memory',
  title: 'worker and sweep function over a converged fleet of kwok Machines',
  controlPlane: { kcm: false, scheduler: false, kwok: false },
  async run(env) {
    const n = env.options.quick ? 1000 : 10_000
    // Short enough that two whole cycles fit in the bench, long enough for a sweep of 10,000.
    const sweepSeconds = 120
    const steady = { cycles: 2, periodMs: sweepSeconds * 1000 }
    const api = await installFleetApi(env.controlPlane)
    const client = countingKube(api.kc)
    try {
      await client.kube.create(coreTypes.namespace, { metadata: { name: namespace } })
      const seedStarted = performance.now()
      await seedConvergedFleet(client.kube, namespace, { from: 0, to: n }, 16)
      const seedSeconds = (performance.now() - seedStarted) / 1000
      env.log(`seeded ${n} Machines and Nodes in ${round(seedSeconds, 1)} s`)
      const childEnv = {
        KUBECONFIG: env.controlPlane.kubeconfigPath,
        WATCH_NAMESPACE: namespace,
        MACHINE_API_PROVIDERS: 'kwok',
        SWEEP_PERIOD_SECONDS: '300',
        LOG_LEVEL: 'warn',
        // e.g. --max-old-space-size=96: what a heap cap does to the functions' peak RSS and time.
        ...(process.env.BENCH_FUNCTION_NODE_OPTIONS
          ? { NODE_OPTIONS: process.env.BENCH_FUNCTION_NODE_OPTIONS }
          : {}),
      }
      // The sweep as its CronJob runs it (heap caps included), unless the option above overrides.
      const sweepEnv = {
        NODE_OPTIONS: deployedEnv('overlays/plain/sweep-cronjob.yaml', 'NODE_OPTIONS') ?? '',
        ...childEnv,
      }
      env.log(`sweep NODE_OPTIONS: ${sweepEnv.NODE_OPTIONS || '(none)'}`)
      const worker = await workerFigures(env, childEnv, n)
      env.log(
        `worker: first sync ${round(worker.syncSeconds, 1)} s, peak ${round(worker.peakMb, 1)} MB`,
      )
      const sweeps: Array<Awaited<ReturnType<typeof sweepFigures>>> = []
      for (let run = 0; run < env.options.runs; run++) {
        const s = await sweepFigures(env, sweepEnv)
        sweeps.push(s)
        env.log(
          `sweep ${run + 1}: ${round(s.seconds, 1)} s, peak ${round(s.peakMb, 1)} MB, ${totalOf(s.requests)} requests`,
        )
      }
      const memory = await pagedVersusUnpaged(client.kube, namespace, pageSize)
      const cycles = await steadyStateFigures(env, childEnv, n, steady)
      env.log(
        `worker steady state: ${totalOf(cycles.own)} requests in ${cycles.cycles} sweep cycles of ${round(cycles.windowMs / 1000, 1)} s`,
      )
      const windowMinutes = cycles.windowMs / 60_000
      const ownPerSweep = totalOf(cycles.own) / cycles.cycles
      const listsPerSweep = totalOf(cycles.own, (k) => k.startsWith('list ')) / cycles.cycles
      const cycleMinutes = windowMinutes / cycles.cycles
      const pages = Math.ceil(n / pageSize)
      const lastSweep = sweeps[sweeps.length - 1]
      const measurements: Measurement[] = [
        measurement(
          `sweep function: wall time, ${n} Machines`,
          's',
          sweeps.map((s) => s.seconds),
          {
            name: 'a paged list of the Machines alone',
            value: memory.pagedSeconds,
          },
        ),
        measurement(
          'sweep function: peak RSS',
          'MB',
          sweeps.map((s) => s.peakMb),
          undefined,
          `NODE_OPTIONS=${sweepEnv.NODE_OPTIONS || '(none)'}`,
        ),
        measurement(
          'sweep function: apiserver requests per sweep',
          'req',
          sweeps.map((s) => totalOf(s.requests)),
          { name: `paged lists of Machines and Nodes (2 x ${pages})`, value: 2 * pages },
          'nothing changed, so no write is needed; each Node could come from a paged Node list',
        ),
        measurement(
          `worker: first sync of ${n} Machines`,
          's',
          [worker.syncSeconds],
          undefined,
          'reconciles each converged Machine (nothing to write), plus self-wakeups',
        ),
        measurement('worker: peak RSS (first sync)', 'MB', [worker.peakMb]),
        measurement(
          `worker: apiserver requests per sweep, steady state`,
          'req',
          [ownPerSweep],
          { name: "the sweep's paged lists alone", value: listsPerSweep },
          `the worker's own calls over ${cycles.cycles} whole sweep cycles, divided by ${cycles.cycles}`,
        ),
        measurement(
          `worker: apiserver requests per minute, steady state (sweep every ${sweepSeconds} s)`,
          'req/min',
          [totalOf(cycles.own) / windowMinutes],
          {
            name: "the sweep's paged lists alone",
            value: round((listsPerSweep * cycles.cycles) / windowMinutes, 1),
          },
          `${cycles.cycles} whole sweep cycles (${round(cycles.windowMs / 1000, 1)} s); at the default period (300 s): ${round(ownPerSweep / (5 + cycleMinutes - sweepSeconds / 60), 1)} req/min`,
        ),
        measurement('in-process: RSS growth of a paged sweep', 'MB', [memory.pagedGrowthMb], {
          name: 'one unpaged list',
          value: memory.unpagedGrowthMb,
        }),
      ]
      return {
        id: 'scale-memory',
        title: scaleMemoryBench.title,
        measurements,
        details: {
          machines: n,
          machineShape:
            "kwok Machine (providerSpec kwok {}) with finalizer, spec.providerID and providerID-hash label; its Node created directly with the kwok provider's labels, the Machine controller's back-reference annotations and a Ready condition (nothing updates Nodes: no kcm, no kwok); status = the controller's computeMachineStatus for that Machine and Node (Running, nodeRef, Ready)",
          seedSeconds: round(seedSeconds, 1),
          workerFirstSyncPerMachine: perUnit(worker.sync, n),
          sweepPeriodSeconds: sweepSeconds,
          steadyStateWindowSeconds: round(cycles.windowMs / 1000, 1),
          steadyStateSweeps: cycles.cycles,
          workerSteadyStateRequests: cycles.own,
          apiserverSteadyStateRequestsPerMinute: round(
            totalOf(cycles.apiserver) / windowMinutes,
            1,
          ),
          apiserverSteadyStateRequests: cycles.apiserver,
          sweepRequestsPerMachine: perUnit(lastSweep?.requests ?? {}, n),
          sweepRequestsByVerb: byVerb(lastSweep?.requests ?? {}),
          memory,
        },
      }
    } finally {
      client.kube.close()
      await api.close()
    }
  },
}
