/**
 * @module The worker's in-process bus run inside the scenario process, so its watch events can be
 * intercepted: every controller of the catalog, the aws provider on the world's moto, the same
 * mappers and watched kinds as dist/worker.js, one namespace, a given sweep period.
 */
import type { KubeConfig } from '@kubernetes/client-node'
import { type ChangeInterceptor, startInProcessBus } from '../../../src/bus/in-process-bus'
import { machineApiMappers, watchedTypes } from '../../../src/bus/machine-api-mappers'
import { controllerCatalog } from '../../../src/cli/controller-catalog'
import { systemClock } from '../../../src/clock'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import { silentLogger } from '../../../src/observability/logger'
import { createDefaultProviders } from '../../../src/providers/default-registry'
import { createClaimHolder, processSelf } from '../../../src/reconcile/machine/claim-holder'
import type { Controller, ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'

export interface EventBus {
  /** Sweeps run so far. */
  sweeps(): number
  stop(): Promise<void>
}

/** Starts the bus; resolves once every watch has listed and opened its stream. */
export async function startEventBus(options: {
  kc: KubeConfig
  /** The world's worker environment (providers, EC2 endpoint, region, owner id). */
  env: Record<string, string>
  namespace: string
  sweepPeriodMs: number
  interceptChanges?: ChangeInterceptor
  /** Wraps each catalog controller (the hot-loop count counts their reconciles). */
  wrap?: (controller: Controller<ReconcileDeps>) => Controller<ReconcileDeps>
}): Promise<EventBus> {
  const kube = createKubeClient(createHttpTransport(options.kc, () => {}))
  const providers = createDefaultProviders(options.env)
  const controllers = controllerCatalog({
    providers,
    claimHolder: createClaimHolder(processSelf(process.env)),
  }).map((c) => options.wrap?.(c) ?? c)
  const deps = { kube, clock: systemClock, log: silentLogger(), fieldManager: 'machine-api-chaos' }
  let sweeps = 0
  const bus = startInProcessBus({
    kube,
    runner: createRunner({ controllers, deps }),
    reconciled: controllers.map((c) => c.resource),
    watched: watchedTypes(controllers),
    mappers: machineApiMappers(controllers.map((c) => c.kind)),
    timers: realTimers(),
    log: deps.log,
    namespace: options.namespace,
    concurrency: 8,
    sweepPeriodMs: options.sweepPeriodMs,
    interceptChanges: options.interceptChanges,
    onSweep: () => sweeps++,
  })
  await bus.ready()
  return {
    sweeps: () => sweeps,
    async stop() {
      await bus.stop()
      kube.close()
    },
  }
}
