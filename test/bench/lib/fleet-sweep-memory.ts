/**
 * @module The old sweep-memory comparison (test/bench/sweep-memory.ts, folded in here): in this
 * process, the RSS growth of a paged sweep whose keys are handed off (not kept) against one
 * unpaged list of the same Machines. Run with --expose-gc (scripts/bench.sh does).
 */
import { machineApiTypes } from '../../../src/api/resource-types'
import { sweep } from '../../../src/bus/sweep'
import type { KubeClient } from '../../../src/kube/kube-client'
import { silentLogger } from '../../../src/observability/logger'
import { round } from './stats'

const mb = (bytes: number) => round(bytes / 1024 / 1024, 1)
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {})

/** Samples RSS every 20 ms while `work` runs; returns the peak and the seconds it took. */
async function peakRss(work: () => Promise<unknown>): Promise<{ peak: number; seconds: number }> {
  let peak = process.memoryUsage.rss()
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 20)
  const started = performance.now()
  try {
    await work()
  } finally {
    clearInterval(timer)
  }
  return {
    peak: Math.max(peak, process.memoryUsage.rss()),
    seconds: (performance.now() - started) / 1000,
  }
}

async function settle(): Promise<number> {
  gc()
  await new Promise((resolve) => setTimeout(resolve, 500))
  return process.memoryUsage.rss()
}

export async function pagedVersusUnpaged(kube: KubeClient, namespace: string, pageSize: number) {
  const idle = await settle()
  let keys = 0
  const paged = await peakRss(() =>
    sweep({
      kube,
      types: [machineApiTypes.machine],
      namespace,
      pageSize,
      log: silentLogger(),
      enqueue: () => {
        keys++
      },
    }),
  )
  const idleAgain = await settle()
  const unpaged = await peakRss(() => kube.list(machineApiTypes.machine, { namespace }))
  await settle()
  return {
    pageSize,
    keys,
    idleRssMb: mb(idle),
    pagedSeconds: round(paged.seconds, 3),
    pagedGrowthMb: mb(Math.max(0, paged.peak - idle)),
    unpagedSeconds: round(unpaged.seconds, 3),
    unpagedGrowthMb: mb(Math.max(0, unpaged.peak - idleAgain)),
  }
}
