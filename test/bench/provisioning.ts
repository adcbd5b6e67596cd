/**
 * @module provisioning: a MachineSet scaled 0 -> N kwok Machines with every controller on the
 * in-process bus in this process, timed until all N Machines are Running with `status.nodeRef`;
 * compared with a tight client that makes only the four writes a Machine needs, with the same
 * concurrency. Everything is deleted (and waited for) between runs, untimed.
 *
 * Sizes: 100 and 1,000; `--quick` 100 alone; `BENCH_PROVISIONING_SIZES=100,5000` any list (the
 * first is the base the larger sizes' time per Machine is compared with).
 */
import { machineApiTypes } from '../../src/api/resource-types'
import { coreTypes } from '../../src/kube/resource'
import { diffCounts, perUnit, totalOf } from './lib/apiserver-metrics-text'
import type { Bench, Measurement } from './lib/bench'
import { installFleetApi } from './lib/fleet-api'
import { fleetConcurrency, startFleetControllers } from './lib/fleet-controllers'
import { type CountingKube, countingKube } from './lib/fleet-kube'
import { kwokMachineSet } from './lib/fleet-manifests'
import {
  tightCleanup,
  tightProvision,
  tightWritesPerMachine,
  waitForEmpty,
} from './lib/fleet-tight-client'
import { waitForRunning } from './lib/fleet-watch'
import { measurement } from './lib/measurement'
import { cpuReader } from './lib/process-cpu'
import { median, round } from './lib/stats'

const fleet = 'fleet'
const tight = 'tight'
const setName = 'provisioning'

type CpuReader = () => Record<string, number>

/** Seconds for one controllers run of size n, the controllers' requests and the CPU it took. */
async function controllersRun(
  controllers: CountingKube,
  bench: CountingKube,
  n: number,
  readCpu: CpuReader,
) {
  const running = await startFleetControllers({
    kube: controllers.kube,
    metrics: controllers.metrics,
    namespace: fleet,
  })
  try {
    const before = await controllers.counts()
    const reconcilesBefore = await controllers.reconciles()
    const cpuBefore = readCpu()
    const rss = peakRss()
    const started = performance.now()
    await bench.kube.mergePatch(
      machineApiTypes.machineSet,
      { namespace: fleet, name: setName },
      {
        spec: { replicas: n },
      },
    )
    await waitForRunning(bench.kube, fleet, n, 1_800_000)
    const seconds = (performance.now() - started) / 1000
    const cpu = diffCounts(cpuBefore, readCpu())
    const requests = diffCounts(before, await controllers.counts())
    const reconciles = diffCounts(reconcilesBefore, await controllers.reconciles())
    const peakRssMb = rss.stop()
    await bench.kube.mergePatch(
      machineApiTypes.machineSet,
      { namespace: fleet, name: setName },
      {
        spec: { replicas: 0 },
      },
    )
    await waitForEmpty(bench.kube, fleet)
    return { seconds, requests, reconciles, cpu, peakRssMb }
  } finally {
    await running.stop()
  }
}

/**
 * Samples this process's resident memory (the controllers run in it) until stopped; returns the
 * peak in MB. Sampled, because the process's lifetime peak would carry an earlier run's.
 */
function peakRss(everyMs = 250): { stop(): number } {
  let peak = process.memoryUsage.rss()
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, everyMs)
  return {
    stop() {
      clearInterval(timer)
      return round(Math.max(peak, process.memoryUsage.rss()) / 2 ** 20, 1)
    },
  }
}

/** The sizes to run: BENCH_PROVISIONING_SIZES (`100,5000`), else 100 and 1,000 (100 if quick). */
function provisioningSizes(quick: boolean): number[] {
  const listed = process.env.BENCH_PROVISIONING_SIZES?.split(',').map(Number)
  if (listed?.length && listed.every((n) => Number.isInteger(n) && n > 0)) return listed
  if (listed) throw new Error(`BENCH_PROVISIONING_SIZES: not a list of sizes: ${listed.join()}`)
  return quick ? [100] : [100, 1000]
}

async function tightRun(bench: CountingKube, n: number, run: number, readCpu: CpuReader) {
  const cpuBefore = readCpu()
  const started = performance.now()
  await tightProvision(bench.kube, tight, `m${n}-${run}`, n, fleetConcurrency)
  const seconds = (performance.now() - started) / 1000
  const cpu = diffCounts(cpuBefore, readCpu())
  await tightCleanup(bench.kube, tight, fleetConcurrency)
  return { seconds, cpu }
}

export const provisioningBench: Bench = {
  id: 'provisioning',
  title: 'MachineSet 0 -> N kwok Machines Running with a nodeRef, vs a tight client',
  async run(env) {
    const api = await installFleetApi(env.controlPlane)
    const controllers = countingKube(api.kc)
    const bench = countingKube(api.kc)
    // CPU per Machine of every process involved: on 2 cores both sides run CPU-bound, so this
    // says where our extra time goes (the controllers and webhook in this process, or the
    // apiserver and etcd serving their requests).
    const readCpu = cpuReader(env.controlPlane.workDir)
    try {
      for (const name of [fleet, tight]) {
        await bench.kube.create(coreTypes.namespace, { metadata: { name } })
      }
      await bench.kube.create(machineApiTypes.machineSet, kwokMachineSet(fleet, setName, 0))
      const sizes = provisioningSizes(env.options.quick)
      const measurements: Measurement[] = []
      const details: Record<string, unknown> = { concurrency: fleetConcurrency, sizes }
      const perMachineMs: Record<number, number> = {}
      for (const n of sizes) {
        const ours: number[] = []
        const limit: number[] = []
        const requests: Array<Record<string, number>> = []
        const reconciles: Array<Record<string, number>> = []
        const ourCpu: number[] = []
        const limitCpu: number[] = []
        const requestsPerMachine: number[] = []
        const controllersCpu: number[] = []
        const peakRssMb: number[] = []
        let cpuByProcess: { ours: Record<string, number>; tight: Record<string, number> } = {
          ours: {},
          tight: {},
        }
        // N=1000 takes minutes per run on 2 cores: once, to fit the suite's budget.
        const runs = n >= 1000 ? 1 : env.options.runs
        for (let run = 0; run < runs; run++) {
          const c = await controllersRun(controllers, bench, n, readCpu)
          ours.push(n / c.seconds)
          requests.push(c.requests)
          reconciles.push(c.reconciles)
          env.log(
            `N=${n} run ${run + 1}: controllers ${round(c.seconds, 1)} s (${round(n / c.seconds, 1)} machines/s)`,
          )
          const t = await tightRun(bench, n, run, readCpu)
          limit.push(n / t.seconds)
          env.log(
            `N=${n} run ${run + 1}: tight client ${round(t.seconds, 1)} s (${round(n / t.seconds, 1)} machines/s)`,
          )
          ourCpu.push(totalOf(c.cpu) / n)
          limitCpu.push(totalOf(t.cpu) / n)
          requestsPerMachine.push(totalOf(c.requests) / n)
          controllersCpu.push((c.cpu.bench ?? 0) / n)
          peakRssMb.push(c.peakRssMb)
          cpuByProcess = { ours: perUnit(c.cpu, n), tight: perUnit(t.cpu, n) }
        }
        measurements.push(
          measurement(`controllers, N=${n}`, 'machines/s', ours, {
            name: `tight client (${tightWritesPerMachine} writes/Machine)`,
            samples: limit,
          }),
          measurement(`CPU per Machine, all processes, N=${n}`, 'ms', ourCpu, {
            name: 'tight client',
            samples: limitCpu,
          }),
          measurement(
            `controllers: apiserver requests per Machine, N=${n}`,
            'req',
            requestsPerMachine,
            {
              name: `tight client (${tightWritesPerMachine} writes/Machine)`,
              value: tightWritesPerMachine,
            },
          ),
          // The controllers share this process with the bench's own watch of the Machines.
          measurement(`controllers process: CPU per Machine, N=${n}`, 'ms', controllersCpu),
          measurement(`controllers process: peak RSS, N=${n}`, 'MB', peakRssMb),
        )
        perMachineMs[n] = 1000 / median(ours)
        const last = requests[requests.length - 1] ?? {}
        details[`N=${n}`] = {
          controllersMachinesPerSecond: ours.map((v) => round(v, 2)),
          tightMachinesPerSecond: limit.map((v) => round(v, 2)),
          controllerRequestsPerMachine: round(totalOf(last) / n, 2),
          controllerRequestsPerMachineByVerb: perUnit(last, n),
          reconcilesPerMachineByKind: perUnit(reconciles[reconciles.length - 1] ?? {}, n),
          cpuMsPerMachineByProcess: cpuByProcess,
        }
      }
      const [base, ...larger] = sizes
      for (const n of larger) {
        const growth = (perMachineMs[n] ?? 0) / (perMachineMs[base ?? 0] ?? 1)
        measurements.push(
          measurement(`controllers: time per Machine, N=${n} / N=${base}`, 'x', [growth], {
            name: 'linear',
            value: 1,
          }),
        )
      }
      return { id: 'provisioning', title: provisioningBench.title, measurements, details }
    } finally {
      controllers.kube.close()
      bench.kube.close()
      await api.close()
    }
  },
}
