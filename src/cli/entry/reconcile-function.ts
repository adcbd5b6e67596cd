/**
 * @module The CloudEvents HTTP function's composition: runner + machine-api mappers + the node:http
 * listener, served on the settings' port. `functions/reconcile.ts` only calls this.
 */

import { createReconcileListener } from '../../bus/http-listener'
import { listen } from '../../http-server'
import { runtimeWiring, type StartRuntimeService } from '../runtime-service'

/** Serves the function; resolves once it listens. */
export const startReconcileFunction: StartRuntimeService = async (deps, settings, controllers) => {
  const { runner, ...wiring } = runtimeWiring(deps, controllers)
  const listener = createReconcileListener({
    kube: deps.kube,
    runner,
    ...wiring,
    log: deps.log,
    registry: deps.registry,
    metrics: deps.metrics,
    namespace: settings.namespace,
    sweepConcurrency: settings.concurrency,
  })
  const server = await listen(listener, settings.port)
  deps.log.info({ port: server.port, kinds: runner.kinds() }, 'reconcile function listening')
  return { port: server.port, stop: () => server.close() }
}
