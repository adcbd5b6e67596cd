/** @module `machine-api reconcile`: the CloudEvents HTTP reconcile function (Knative sink). */

import { createDeps } from '../../deps'
import type { CliCommand } from '../command'
import { runtimeControllers } from '../controllers'
import { startReconcileFunction } from '../entry/reconcile-function'
import { controllersFlag, parseRuntimeSettings, runtimeEnvHelp } from '../runtime-settings'
import { stopOnSignals } from '../signals'

/** `reconcile`: the same process as `functions/reconcile.ts`. */
export const reconcileCommand: CliCommand = {
  name: 'reconcile',
  summary: 'serve the CloudEvents HTTP reconcile function',
  description:
    'Accepts CloudEvents (Knative ApiServerSource, PingSource, Broker Triggers) on $PORT, maps each to the objects to reconcile and reconciles them; a PingSource event runs a sweep. Stops on SIGTERM/SIGINT.',
  flags: { controllers: controllersFlag },
  env: runtimeEnvHelp,
  async run(values, io) {
    const settings = parseRuntimeSettings(values, io.env)
    const deps = createDeps('machine-api-reconcile')
    const { controllers } = runtimeControllers(deps, settings, io.env)
    const server = await startReconcileFunction(deps, settings, controllers)
    stopOnSignals(async (signal) => {
      deps.log.info({ signal }, 'stopping')
      await server.close().finally(() => deps.close())
    })
    return 'running'
  },
}
