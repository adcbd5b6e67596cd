/**
 * @module Entry point of the one-shot sweep (CronJob): publishes every key to JetStream when
 * NATS_URL is set, else reconciles each here. Exits non-zero when a kind could not be listed.
 */
import { sweepOnce } from '../src/bus/entry/sweep-once'
import { createDeps, readSettings } from '../src/deps'
import { createDefaultProviders } from '../src/providers/default-registry'
import { controllerCatalog } from '../src/reconcile/runtime/catalog'
import { selectControllers } from '../src/reconcile/runtime/selection'

const settings = readSettings(process.argv.slice(2), process.env)
const deps = createDeps('machine-api-sweep')
const controllers = selectControllers(
  controllerCatalog({ providers: createDefaultProviders(deps.kube, process.env) }),
  settings.controllers,
)
const report = await sweepOnce(deps, settings, controllers)
deps.close()
process.exit(report.failedKinds.length > 0 ? 1 : 0)
