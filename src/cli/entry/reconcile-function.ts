/**
 * @module The CloudEvents HTTP function's composition: runner + machine-api mappers + the Hono
 * app, served on the settings' port. `functions/reconcile.ts` only calls this.
 */

import { createReconcileApp } from '../../bus/http-app'
import { listen } from '../../http/listen'
import { runtimeWiring, type StartRuntimeService } from '../runtime-service'
import { runStatusCheckPass } from './status-check-pass'

/**
 * Serves the function; resolves once it listens. A sweep tick (PingSource) also runs the
 * status-check pass when `providers` are given, as the sweep CronJob does in the other overlays.
 */
export const startReconcileFunction: StartRuntimeService = async (
  deps,
  settings,
  controllers,
  _env,
  providers,
) => {
  const { runner, ...wiring } = runtimeWiring(deps, controllers)
  const afterSweep = providers
    ? () => runStatusCheckPass(deps, providers, settings.namespace)
    : undefined
  const app = createReconcileApp({
    kube: deps.kube,
    runner,
    ...wiring,
    log: deps.log,
    registry: deps.registry,
    metrics: deps.metrics,
    namespace: settings.namespace,
    sweepConcurrency: settings.concurrency,
    afterSweep,
  })
  const server = await listen(app, settings.port)
  deps.log.info({ port: server.port, kinds: runner.kinds() }, 'reconcile function listening')
  return { port: server.port, stop: () => server.close() }
}
