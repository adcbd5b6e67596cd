/**
 * @module The kinds this build can reconcile. Each kind's folder (src/reconcile/<kind>/) exports a
 * Controller and is listed here; `--controllers` then picks among them.
 */
import type { Controller, ReconcileDeps } from './controller'

/**
 * Every registered controller. Empty until the per-kind reconcilers land: the functions then
 * start, serve health and metrics, and reconcile nothing (`--controllers` names fail loudly).
 */
export function controllerCatalog(): Controller<ReconcileDeps>[] {
  return []
}
