/**
 * @module The kinds this build can reconcile, in the composition root: each kind's folder
 * (src/reconcile/<kind>/) exports a Controller built on reconcile/runtime/, and is listed here
 * (not under runtime/, which the kinds import); `--controllers` then picks among them.
 */
import type { ProviderRegistry } from '../providers/registry'
import type { ClaimHolder } from '../reconcile/machine/claim-holder'
import { machineControllerWith } from '../reconcile/machine/reconcile'
import { machineRelatedClass } from '../reconcile/machine/related-class'
import { machineRelatedNode } from '../reconcile/machine/related-node'
import { machineClassControllerWith } from '../reconcile/machine-class/reconcile'
import { machineDeploymentController } from '../reconcile/machine-deployment/reconcile'
import { machineHealthCheckController } from '../reconcile/machine-health-check/reconcile'
import { machineSetController } from '../reconcile/machine-set/reconcile'
import type { Controller, ReconcileDeps } from '../reconcile/runtime/controller'
import { readingDelivered } from '../reconcile/runtime/delivered-reads'

/** What controllers need beyond the common runtime deps. */
export interface CatalogOptions {
  providers: ProviderRegistry
  /** This process in create claims (one per process). */
  claimHolder: ClaimHolder
}

/**
 * Every registered controller. The Machine controller reads the Machine its list or watch event
 * delivered instead of a GET (most of its runs find nothing to do: sweeps, its own writes, Node
 * changes), and in a sweep its linked Node and MachineClass from the sweep's lists of those; the
 * others, few per fleet, read fresh: a MachineSet deciding from a stale replica count would
 * create Machines, a write no resourceVersion guards.
 */
export function controllerCatalog(options: CatalogOptions): Controller<ReconcileDeps>[] {
  return [
    readingDelivered(machineControllerWith(options), machineRelatedNode, machineRelatedClass),
    machineSetController(),
    machineDeploymentController(),
    machineHealthCheckController(),
    machineClassControllerWith(options.providers),
  ]
}
