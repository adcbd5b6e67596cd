/**
 * Sweep memory benchmark (a script, not a test): starts a control plane, creates N ConfigMaps of
 * about 2 KB (roughly a Machine's size), then sweeps them page by page and reports the process's
 * resident memory against its idle size. For contrast it also lists everything in one call.
 *
 *   node --expose-gc --import tsx test/bench/sweep-memory.ts [objects=10000] [pageSize=500]
 */
import { KubeConfig } from '@kubernetes/client-node'
import { createPool } from '../../src/bus/pool'
import { sweep } from '../../src/bus/sweep'
import { createKubeClient } from '../../src/kube/dynamic-client'
import { createHttpTransport } from '../../src/kube/http-transport'
import { coreTypes } from '../../src/kube/resource'
import { silentLogger } from '../../src/observability/logger'
import { startControlPlane } from '../harness/controlplane'

const objects = Number(process.argv[2] ?? 10_000)
const pageSize = Number(process.argv[3] ?? 500)
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {})

/** Samples RSS every 20 ms while `work` runs; returns the peak. */
async function peakRss(work: () => Promise<unknown>): Promise<number> {
  let peak = process.memoryUsage.rss()
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 20)
  try {
    await work()
  } finally {
    clearInterval(timer)
  }
  return Math.max(peak, process.memoryUsage.rss())
}

const controlPlane = await startControlPlane({ kcm: false, scheduler: false, kwok: false })
try {
  const kc = new KubeConfig()
  kc.loadFromFile(controlPlane.kubeconfigPath)
  const kube = createKubeClient(createHttpTransport(kc, () => {}))
  const namespace = 'sweep-bench'
  await kube.create(coreTypes.namespace, { metadata: { name: namespace } })
  const payload = 'x'.repeat(2000)
  let created = 0
  const results: Array<Record<string, number>> = []
  // Measure at a tenth of the fleet and at the full fleet: a flat sweep grows the same at both.
  for (const stage of [Math.ceil(objects / 10), objects]) {
    const started = performance.now()
    const creates = createPool(16)
    for (; created < stage; created++) {
      const i = created
      await creates.submit(async () => {
        await kube.create(coreTypes.configMap, {
          metadata: { namespace, name: `obj-${i}`, labels: { bench: 'sweep' } },
          data: { payload },
        })
      })
    }
    await creates.drain()
    console.log(
      `${stage} objects (${Math.round((performance.now() - started) / 1000)} s to create)`,
    )

    gc()
    await new Promise((resolve) => setTimeout(resolve, 500))
    const idle = process.memoryUsage.rss()
    let keys = 0
    const sweepPeak = await peakRss(() =>
      sweep({
        kube,
        types: [coreTypes.configMap],
        namespace,
        pageSize,
        log: silentLogger(),
        // A publisher's work: take the key and hand it off (keys are not retained).
        enqueue: () => {
          keys++
        },
      }),
    )
    gc()
    const heapAfterSweep = process.memoryUsage().heapUsed
    const unpagedPeak = await peakRss(async () => {
      const all = await kube.list(coreTypes.configMap, { namespace })
      return all.items.length
    })
    gc()
    results.push({
      objects: stage,
      sweptKeys: keys,
      idleRssMB: mb(idle),
      sweepPeakRssMB: mb(sweepPeak),
      sweepGrowthMB: mb(sweepPeak - idle),
      heapUsedAfterSweepMB: mb(heapAfterSweep),
      unpagedListGrowthMB: mb(unpagedPeak - idle),
    })
  }
  console.log(JSON.stringify({ pageSize, results }, null, 2))
  kube.close()
} finally {
  await controlPlane.stop()
}
