/**
 * @module Entry point of the one-shot sweep (CronJob): publishes every key to JetStream when
 * NATS_URL is set, else reconciles each here; then the orphan sweep ($ORPHAN_SWEEP: `report`
 * (default), `terminate` or `off`). Exits non-zero when a kind could not be listed.
 */
import { sweepOnce } from '../src/bus/entry/sweep-once'
import { createDeps, readSettings } from '../src/deps'
import { createDefaultProviders } from '../src/providers/default-registry'
import { sweepOrphanInstances } from '../src/reconcile/machine-class/orphan-sweep'
import { controllerCatalog } from '../src/reconcile/runtime/catalog'
import { selectControllers } from '../src/reconcile/runtime/selection'

const settings = readSettings(process.argv.slice(2), process.env)
const orphanMode = process.env.ORPHAN_SWEEP ?? 'report'
if (!['report', 'terminate', 'off'].includes(orphanMode)) {
  throw new Error(`ORPHAN_SWEEP must be report, terminate or off, got ${orphanMode}`)
}
const deps = createDeps('machine-api-sweep')
const providers = createDefaultProviders(deps.kube, process.env)
const controllers = selectControllers(controllerCatalog({ providers }), settings.controllers)
const report = await sweepOnce(deps, settings, controllers)
if (orphanMode !== 'off') {
  await sweepOrphanInstances({
    kube: deps.kube,
    providers,
    log: deps.log,
    fieldManager: deps.fieldManager,
    now: () => deps.clock.now(),
    terminate: orphanMode === 'terminate',
  })
}
await providers.close()
deps.close()
process.exit(report.failedKinds.length > 0 ? 1 : 0)
