/** @module `machine-api reconcile`: the CloudEvents HTTP reconcile function (Knative sink). */

import type { CliCommand } from '../command'
import { startReconcileFunction } from '../entry/reconcile-function'
import { serveRuntime } from '../runtime-service'
import { controllersFlag, runtimeEnvHelp } from '../runtime-settings'

/** `reconcile`: the same process as `functions/reconcile.ts`. */
export const reconcileCommand: CliCommand = {
  name: 'reconcile',
  summary: 'serve the CloudEvents HTTP reconcile function',
  description:
    'Accepts CloudEvents (Knative ApiServerSource, PingSource, Broker Triggers) on $PORT, maps each to the objects to reconcile and reconciles them; a PingSource event runs a sweep. Stops on SIGTERM/SIGINT.',
  flags: { controllers: controllersFlag },
  env: runtimeEnvHelp,
  run: serveRuntime({ service: 'machine-api-reconcile', start: startReconcileFunction }),
}
