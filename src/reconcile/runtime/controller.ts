/**
 * @module The reconcile contract every kind plugs into:
 * `reconcile(deps, key, observed?) -> { requeueAfterMs? }`. A kind registers a Controller;
 * transports hand keys to the runner, with the object when their list or watch event carried it.
 */

import type { RelatedObjects } from '../../bus/related-pages'
import type { Clock } from '../../clock'
import type { KubeClient } from '../../kube/kube-client'
import type { ObjectKey } from '../../kube/object-key'
import type { HeldObject } from '../../kube/read-once'
import type { KubeObject, ResourceType } from '../../kube/resource'
import type { Logger } from '../../observability/logger'

/** What a reconcile returns: when to look again, if a timer is pending. No boolean "requeue". */
export interface ReconcileResult {
  /** Run this key again after this many milliseconds (the earliest pending timer). */
  requeueAfterMs?: number
}

/**
 * What every reconcile receives. Kinds extend it (providers, config); the runner replaces `log`
 * with a child carrying the key, kind and reconcile id.
 */
export interface ReconcileDeps {
  kube: KubeClient
  clock: Clock
  log: Logger
  /** The field manager for server-side apply and the Event source component. */
  fieldManager: string
  /**
   * Set by the runner for each reconcile: aborted when the reconcile runs past its deadline.
   * Pass it to remote calls (provider calls, waits) so an abandoned reconcile stops working.
   */
  signal?: AbortSignal | undefined
}

/** A kind's registration with the runtime. */
export interface Controller<D extends ReconcileDeps = ReconcileDeps> {
  /** The kind it reconciles, as in keys (e.g. `Machine`). */
  readonly kind: string
  /** The resource it reconciles: listed by the sweep, watched in-process, where failures go. */
  readonly resource: ResourceType
  /**
   * Reads fresh state for `key`, plans, acts idempotently, writes status last. Throws
   * TransientError / PermanentError (or lets KubeApiError through); never sleeps or polls.
   *
   * `observed`, when given, is the object as the triggering list or watch event delivered it
   * (same kind and key). A controller may decide from it instead of a GET, but it may be stale:
   * every write must carry its resourceVersion, and a controller that acts on it should read
   * fresh first. A Conflict from a run given `observed` is retried at once without it.
   */
  reconcile(
    deps: D,
    key: ObjectKey,
    observed?: KubeObject,
    related?: readonly HeldObject[],
  ): Promise<ReconcileResult>
  /**
   * Objects of other kinds each reconcile reads (the Machine's Node and MachineClass): a sweep
   * lists them too and hands each run its own as `related`, under the same rules as `observed`.
   */
  readonly related?: readonly RelatedObjects[] | undefined
}

/** The `--controllers` name of a kind: its lowercase kind (`machinehealthcheck`). */
export function controllerName(controller: { kind: string }): string {
  return controller.kind.toLowerCase()
}
