/**
 * @module Lets a controller written against `kube.get` use the object its list or watch event
 * delivered: each run gets a read-once client (src/kube/read-once.ts) that answers the first read
 * of the key's own object with the delivered one (and of a related object, e.g. its Node or
 * MachineClass, with the one a sweep's list of those or the Node's own watch event delivered), and
 * every later read of any object with what this run already read or wrote. Nothing outlives the
 * run.
 *
 * The delivered object can be older than the stored one (a sweep's page listed before a change
 * the watch has not delivered yet). Every write the Machine controller bases on it carries its
 * resourceVersion, so a stale one ends in a Conflict, and the runner then runs the key once more
 * reading fresh (see runner.ts): stale input costs a retry, never a wrong write.
 */
import type { RelatedObjects } from '../../bus/related-pages'
import { readOnce } from '../../kube/read-once'
import type { Controller, ReconcileDeps } from './controller'

/**
 * `controller`, reading through a per-run read-once client seeded with the delivered object and
 * the `related` objects a sweep hands over.
 */
export function readingDelivered<D extends ReconcileDeps>(
  controller: Controller<D>,
  ...related: RelatedObjects[]
): Controller<D> {
  return {
    kind: controller.kind,
    resource: controller.resource,
    related,
    reconcile(deps, key, observed, relatedHeld = []) {
      const own = observed ? [{ type: controller.resource, obj: observed }] : []
      const held = [...own, ...relatedHeld]
      return controller.reconcile(
        { ...deps, kube: readOnce(deps.kube, held) },
        key,
        observed,
        relatedHeld,
      )
    },
  }
}
