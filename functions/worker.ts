/**
 * @module Entry point of the long-running worker: `--bus in-process` (watches + queue + sweep timer)
 * or `--bus jetstream` (NATS work queue, `--bridge` to also publish watch hints); `--controllers`.
 */
import { startWorker } from '../src/bus/entry/worker'
import { createDeps, readSettings } from '../src/deps'
import { createDefaultProviders } from '../src/providers/default-registry'
import { controllerCatalog } from '../src/reconcile/runtime/catalog'
import { selectControllers } from '../src/reconcile/runtime/selection'

const settings = readSettings(process.argv.slice(2), process.env)
const deps = createDeps('machine-api-worker')
const controllers = selectControllers(
  controllerCatalog({ providers: createDefaultProviders(deps.kube, process.env) }),
  settings.controllers,
)
const worker = await startWorker(deps, settings, controllers)

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    deps.log.info({ signal }, 'stopping')
    void worker.stop().finally(() => {
      deps.close()
      process.exit(0)
    })
  })
}
