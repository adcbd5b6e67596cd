/**
 * @module The CloudEvents HTTP function's composition: runner + machine-api mappers + Hono app,
 * served on the settings' port. `functions/reconcile.ts` only calls this.
 */

import { createReconcileApp } from '../../bus/http-app'
import { machineApiMappers, watchedTypes } from '../../bus/machine-api-mappers'
import type { RuntimeDeps, RuntimeSettings } from '../../deps'
import { serveApp } from '../../observability/health'
import type { Controller, ReconcileDeps } from '../../reconcile/runtime/controller'
import { createRunner } from '../../reconcile/runtime/runner'

/** Serves the function; resolves with a close function once listening. */
export async function startReconcileFunction(
  deps: RuntimeDeps,
  settings: RuntimeSettings,
  controllers: readonly Controller<ReconcileDeps>[],
): Promise<{ port: number; close: () => Promise<void> }> {
  const runner = createRunner({ controllers, deps, metrics: deps.metrics })
  const app = createReconcileApp({
    kube: deps.kube,
    runner,
    mappers: machineApiMappers(runner.kinds()),
    reconciled: controllers.map((c) => c.resource),
    watched: watchedTypes(controllers),
    log: deps.log,
    registry: deps.registry,
    metrics: deps.metrics,
    namespace: settings.namespace,
    sweepConcurrency: settings.concurrency,
  })
  const server = await serveApp(app, settings.port)
  deps.log.info({ port: server.port, kinds: runner.kinds() }, 'reconcile function listening')
  return server
}
