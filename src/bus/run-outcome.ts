/**
 * @module What transports hand keys to: a Runner, and the outcomes a queue, an HTTP response or a
 * JetStream ack/nak are made from. The reconcile runtime implements it; transports never see a
 * controller.
 */
import type { ObjectKey } from '../kube/object-key'
import type { HeldObject } from '../kube/read-once'
import type { KubeObject } from '../kube/resource'
import type { RelatedObjects } from './related-pages'
import type { OwnChangeWake } from './wake'

/** The outcome of one run, for transports (queue, HTTP status, JetStream ack/nak). */
export type RunOutcome =
  /** Done; nothing scheduled. */
  | { type: 'done' }
  /** Done for now; the controller asked to look again after `afterMs`. */
  | { type: 'requeue'; afterMs: number }
  /** Failed transiently; try again after `afterMs` (backoff or the error's own delay). */
  | { type: 'retry'; afterMs: number; reason: string }
  /** Failed permanently; recorded on the object, not retried until its spec changes. */
  | { type: 'permanent'; reason: string }
  /** No selected controller for this kind (another deployment runs it). */
  | { type: 'skipped' }

/** Runs keys; safe to call for the same key concurrently (reconciles are idempotent). */
export interface Runner {
  /**
   * Runs `key`; `observed` is the object its list or watch event delivered, if any, and `related`
   * the objects of other kinds the same list delivered for it (see `related`). `wake` says that
   * only changes of the key's own object woke it: a change the key's last run made itself then
   * waits for the timer that run returned (a `requeue` for the time left), instead of running.
   */
  run(
    key: ObjectKey,
    observed?: KubeObject,
    related?: readonly HeldObject[],
    wake?: OwnChangeWake,
  ): Promise<RunOutcome>
  /** The kinds this runner reconciles. */
  kinds(): string[]
  /** The related objects a run of `kind` reads and would take from a sweep (none unless it says). */
  related(kind: string): readonly RelatedObjects[]
}

/** The delay a queue should use for an outcome, or undefined when nothing is scheduled. */
export function requeueDelay(outcome: RunOutcome): number | undefined {
  if (outcome.type === 'requeue' || outcome.type === 'retry') return outcome.afterMs
  return undefined
}
