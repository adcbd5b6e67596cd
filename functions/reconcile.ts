/** @module Entry point of the CloudEvents HTTP reconcile function (Knative ApiServerSource / PingSource sink). */

import { startReconcileFunction } from '../src/bus/entry/reconcile-function'
import { createDeps, readSettings } from '../src/deps'
import { createDefaultProviders } from '../src/providers/default-registry'
import { controllerCatalog } from '../src/reconcile/runtime/catalog'
import { selectControllers } from '../src/reconcile/runtime/selection'

const settings = readSettings(process.argv.slice(2), process.env)
const deps = createDeps('machine-api-reconcile')
const controllers = selectControllers(
  controllerCatalog({ providers: createDefaultProviders(deps.kube, process.env) }),
  settings.controllers,
)
const server = await startReconcileFunction(deps, settings, controllers)

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    deps.log.info({ signal }, 'stopping')
    void server.close().finally(() => {
      deps.close()
      process.exit(0)
    })
  })
}
