/**
 * @module Every controller of the catalog (Machine with the kwok provider, MachineSet,
 * MachineDeployment, MachineHealthCheck) on the in-process bus for one namespace, in the bench
 * process, as `npm run dev` runs them (the full-stack fixture's wiring, without vitest).
 */

import { machineApiTypes } from '../../../src/api/resource-types'
import { startInProcessBus } from '../../../src/bus/in-process-bus'
import { machineApiMappers, watchedTypes } from '../../../src/bus/machine-api-mappers'
import { controllerCatalog } from '../../../src/cli/controller-catalog'
import { systemClock } from '../../../src/clock'
import type { KubeClient } from '../../../src/kube/kube-client'
import { silentLogger } from '../../../src/observability/logger'
import type { RuntimeMetrics } from '../../../src/observability/runtime-metrics'
import { createKwokProvider } from '../../../src/providers/kwok/provider'
import { createProviderRegistry } from '../../../src/providers/registry'
import { createClaimHolder, processSelf } from '../../../src/reconcile/machine/claim-holder'
import { machineControllerWith } from '../../../src/reconcile/machine/reconcile'
import { machineRelatedClass } from '../../../src/reconcile/machine/related-class'
import { machineRelatedNode } from '../../../src/reconcile/machine/related-node'
import { readingDelivered } from '../../../src/reconcile/runtime/delivered-reads'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'

/** Reconciles at once: the worker's default ($CONCURRENCY). The tight client uses the same. */
export const fleetConcurrency = 8

/**
 * Deletion stages are retried every 1 s (the full-stack tests' tuning) so cleanup between runs
 * is quick; provisioning does not wait on either period with kwok (the Node exists at once).
 */
const machineTuning = { deletionRetryMs: 1000, nodeLookupRetryMs: 1000 } as const

export interface FleetControllers {
  stop(): Promise<void>
}

/** Starts the controllers for `namespace`; resolves once their watches are synced. */
export async function startFleetControllers(options: {
  kube: KubeClient
  metrics: RuntimeMetrics
  namespace: string
}): Promise<FleetControllers> {
  const { kube, metrics, namespace } = options
  const providers = createProviderRegistry([createKwokProvider()])
  const claimHolder = createClaimHolder(processSelf(process.env))
  const controllers = controllerCatalog({ providers, claimHolder }).map((c) =>
    c.kind === machineApiTypes.machine.kind
      ? readingDelivered(
          machineControllerWith({ providers, claimHolder }, machineTuning),
          machineRelatedNode,
          machineRelatedClass,
        )
      : c,
  )
  const deps = { kube, clock: systemClock, log: silentLogger(), fieldManager: 'machine-api-bench' }
  const bus = startInProcessBus({
    kube,
    runner: createRunner({ controllers, deps, metrics }),
    reconciled: controllers.map((c) => c.resource),
    watched: watchedTypes(controllers),
    mappers: machineApiMappers(controllers.map((c) => c.kind)),
    timers: realTimers(),
    log: deps.log,
    metrics,
    namespace,
    concurrency: fleetConcurrency,
    // The worker's default period: within a run only the first sweep (at start) happens.
    sweepPeriodMs: 300_000,
  })
  await bus.ready()
  return { stop: () => bus.stop() }
}
