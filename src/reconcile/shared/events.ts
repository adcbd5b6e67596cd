/**
 * @module The one Event recorder of every controller. The kube client de-duplicates (the same
 * Event again is counted on the existing one, as `kubectl get events` shows "x N"); this adds the
 * reconcile's rule that a failed Event write never fails the reconcile: it is logged and dropped.
 */
import { errorMessage } from '../../errors'
import type { KubeClient } from '../../kube/kube-client'
import type { KubeObject } from '../../kube/resource'
import type { Logger } from '../../observability/logger'

/** What an Event says. Messages must never contain secrets or user data. */
export interface EventNote {
  type: 'Normal' | 'Warning'
  reason: string
  message: string
}

/** Records `note` on `regarding` as `deps.fieldManager`; resolves even when the write fails. */
export async function recordEvent(
  deps: { kube: KubeClient; log: Logger; fieldManager: string },
  regarding: KubeObject,
  note: EventNote,
): Promise<void> {
  await deps.kube
    .recordEvent({ regarding, ...note, reportingController: deps.fieldManager })
    .catch((error: unknown) =>
      deps.log.warn({ err: errorMessage(error), reason: note.reason }, 'could not record an Event'),
    )
}
