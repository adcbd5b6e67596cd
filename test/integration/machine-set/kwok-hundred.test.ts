/**
 * End to end with the real Machine controller and the kwok provider: a 100-replica MachineSet
 * until every Machine is Running with a Ready Node, both controllers on the in-process bus (watch
 * + queue + sweep) as `npm run dev` runs them. Reports the time and the apiserver requests from
 * the runtime's metrics (`machine_api_kube_requests_total`); asserts only counts. Scales back to
 * 0 before it ends so the shared control plane keeps no Nodes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { startInProcessBus } from '../../../src/bus/in-process-bus'
import { machineApiMappers, watchedTypes } from '../../../src/bus/machine-api-mappers'
import { systemClock } from '../../../src/clock'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import type { KubeClient } from '../../../src/kube/kube-client'
import { silentLogger } from '../../../src/observability/logger'
import { createMetricsRegistry } from '../../../src/observability/metrics'
import {
  createRuntimeMetrics,
  type RuntimeMetrics,
} from '../../../src/observability/runtime-metrics'
import { createKwokProvider } from '../../../src/providers/kwok/provider'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import { createClaimHolder, processSelf } from '../../../src/reconcile/machine/claim-holder'
import { machineControllerWith } from '../../../src/reconcile/machine/reconcile'
import { machineSetController } from '../../../src/reconcile/machine-set/reconcile'
import type { MachineSetObject } from '../../../src/reconcile/machine-set/types'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'
import { waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { machineSetManifest } from './fixture'
import { scaleTo } from './settle'

const api = useMachineApi({
  providerSchemas: (name) => (name === 'kwok' ? kwokProviderSpecSchema() : undefined),
})
const ns = useFileNamespace(() => api().kc, 'ms-kwok')
let kube: KubeClient
let metrics: RuntimeMetrics

beforeAll(() => {
  metrics = createRuntimeMetrics(createMetricsRegistry({ defaultMetrics: false }))
  kube = createKubeClient(
    createHttpTransport(api().kc, (call) =>
      metrics.kubeRequests.inc({
        verb: call.verb,
        resource: call.resource,
        code: String(call.code),
      }),
    ),
  )
})
afterAll(() => kube.close())

async function requestsByResource(): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const v of (await metrics.kubeRequests.get()).values) {
    const key = `${v.labels.verb} ${v.labels.resource}`
    out[key] = (out[key] ?? 0) + v.value
  }
  return out
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0)

describe('a 100-replica MachineSet with the kwok provider', () => {
  it('gets 100 Running Machines with Ready Nodes, then scales back to 0', async () => {
    const deps = { kube, clock: systemClock, log: silentLogger(), fieldManager: 'machine-api-test' }
    const providers = createProviderRegistry([createKwokProvider()])
    const controllers = [
      machineSetController(),
      machineControllerWith(
        { providers, claimHolder: createClaimHolder(processSelf(process.env)) },
        { nodeLookupRetryMs: 1000, deletionRetryMs: 1000 },
      ),
    ]
    const bus = startInProcessBus({
      kube,
      runner: createRunner({ controllers, deps, metrics }),
      reconciled: controllers.map((c) => c.resource),
      watched: watchedTypes(controllers),
      mappers: machineApiMappers(controllers.map((c) => c.kind)),
      timers: realTimers(),
      log: deps.log,
      metrics,
      namespace: ns(),
      concurrency: 8,
      sweepPeriodMs: 30_000,
    })
    try {
      await bus.ready()
      const before = await requestsByResource()
      const started = performance.now()
      await kube.create(
        machineApiTypes.machineSet,
        machineSetManifest(ns(), 'kwok-hundred', {
          replicas: 100,
          template: {
            metadata: { labels: { set: 'kwok-hundred' } },
            spec: { providerSpec: { provider: 'kwok', value: {} } },
          },
        }),
      )
      const set = await waitFor(
        '100 Running Machines reported by the set',
        async () => {
          const read = await kube.get<MachineSetObject & { [k: string]: unknown }>(
            machineApiTypes.machineSet,
            { namespace: ns(), name: 'kwok-hundred' },
          )
          return read?.status?.availableReplicas === 100 ? read : false
        },
        { intervalMs: 500, timeoutMs: 300_000 },
      )
      const seconds = (performance.now() - started) / 1000
      const after = await requestsByResource()
      const delta = Object.fromEntries(
        Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]),
      )
      console.log(
        `kwok 100-replica MachineSet: ${seconds.toFixed(1)}s to 100 Running and Ready; ` +
          `${total(delta)} apiserver requests (MachineSet + Machine controllers and watches)`,
        delta,
      )
      expect(set.status).toMatchObject({ replicas: 100, readyReplicas: 100 })
      expect(delta['create machines']).toBe(100)

      await scaleTo({ ...deps }, ns(), 'kwok-hundred', 0)
      await waitFor(
        'every Machine and its Node gone',
        async () =>
          (await kube.list(machineApiTypes.machine, { namespace: ns() })).items.length === 0,
        { intervalMs: 500, timeoutMs: 300_000 },
      )
    } finally {
      await bus.stop()
    }
  })
})
