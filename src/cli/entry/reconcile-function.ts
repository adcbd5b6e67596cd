/**
 * @module The CloudEvents HTTP function's composition: runner + machine-api mappers + Hono app,
 * served on the settings' port. `functions/reconcile.ts` only calls this.
 */

import { createReconcileApp } from '../../bus/http-app'
import { serveApp } from '../../observability/health'
import { runtimeWiring, type StartRuntimeService } from '../runtime-service'

/** Serves the function; resolves once it listens. */
export const startReconcileFunction: StartRuntimeService = async (deps, settings, controllers) => {
  const { runner, ...wiring } = runtimeWiring(deps, controllers)
  const app = createReconcileApp({
    kube: deps.kube,
    runner,
    ...wiring,
    log: deps.log,
    registry: deps.registry,
    metrics: deps.metrics,
    namespace: settings.namespace,
    sweepConcurrency: settings.concurrency,
  })
  const server = await serveApp(app, settings.port)
  deps.log.info({ port: server.port, kinds: runner.kinds() }, 'reconcile function listening')
  return { port: server.port, stop: () => server.close() }
}
