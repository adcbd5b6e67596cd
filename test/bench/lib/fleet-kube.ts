/**
 * @module A kube client that counts its own apiserver calls by `verb resource`, through the
 * transport callback the runtime's metrics use (src/deps.ts), so a benchmark can tell its own
 * traffic (or the controllers') from everybody else's in the apiserver's counters.
 */
import type { KubeConfig } from '@kubernetes/client-node'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import type { KubeClient } from '../../../src/kube/kube-client'
import { createMetricsRegistry } from '../../../src/observability/metrics'
import {
  createRuntimeMetrics,
  type RuntimeMetrics,
} from '../../../src/observability/runtime-metrics'
import type { RequestCounts } from './apiserver-metrics-text'

export interface CountingKube {
  kube: KubeClient
  metrics: RuntimeMetrics
  /** Calls so far by `verb resource` (from `machine_api_kube_requests_total`). */
  counts(): Promise<RequestCounts>
  /** Reconciles so far by kind (from `machine_api_reconcile_duration_seconds`). */
  reconciles(): Promise<RequestCounts>
}

/** A client for `kc` whose calls land in a fresh runtime-metrics registry. */
export function countingKube(kc: KubeConfig): CountingKube {
  const metrics = createRuntimeMetrics(createMetricsRegistry({ defaultMetrics: false }))
  const kube = createKubeClient(
    createHttpTransport(kc, (call) =>
      metrics.kubeRequests.inc({
        verb: call.verb,
        resource: call.resource,
        code: String(call.code),
      }),
    ),
  )
  return {
    kube,
    metrics,
    async counts() {
      const out: RequestCounts = {}
      for (const v of (await metrics.kubeRequests.get()).values) {
        const key = `${v.labels.verb} ${v.labels.resource}`
        out[key] = (out[key] ?? 0) + v.value
      }
      return out
    },
    async reconciles() {
      const out: RequestCounts = {}
      for (const v of (await metrics.reconcileDuration.get()).values) {
        if (v.metricName !== 'machine_api_reconcile_duration_seconds_count') continue
        const kind = String(v.labels.kind)
        out[kind] = (out[kind] ?? 0) + v.value
      }
      return out
    },
  }
}

/**
 * Resolves once `counting` has made no request for `quietMs` (at most `timeoutMs`): controllers
 * just started are still syncing (their first sweep, the class's first reconcile, watches), which
 * a measurement that starts at once would count as the first cycle's cost.
 */
export async function waitForQuiet(counting: CountingKube, quietMs = 2000, timeoutMs = 30_000) {
  const total = async () => Object.values(await counting.counts()).reduce((a, b) => a + b, 0)
  const deadline = Date.now() + timeoutMs
  let last = await total()
  let quietSince = Date.now()
  while (Date.now() - quietSince < quietMs && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    const now = await total()
    if (now !== last) {
      last = now
      quietSince = Date.now()
    }
  }
}
