/**
 * @module The kinds this build can reconcile. Each kind's folder (src/reconcile/<kind>/) exports a
 * Controller and is listed here; `--controllers` then picks among them.
 */
import type { ProviderRegistry } from '../../providers/registry'
import { machineControllerWith } from '../machine'
import { machineClassControllerWith } from '../machine-class/reconcile'
import { machineDeploymentController } from '../machine-deployment/reconcile'
import { machineHealthCheckController } from '../machine-health-check/reconcile'
import { machineSetController } from '../machine-set/reconcile'
import type { Controller, ReconcileDeps } from './controller'

/** What controllers need beyond the common runtime deps. */
export interface CatalogOptions {
  providers: ProviderRegistry
}

/** Every registered controller. */
export function controllerCatalog(options: CatalogOptions): Controller<ReconcileDeps>[] {
  return [
    machineControllerWith(options.providers),
    machineSetController(),
    machineDeploymentController(),
    machineHealthCheckController(),
    machineClassControllerWith(options.providers),
  ]
}
