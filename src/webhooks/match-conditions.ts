/**
 * @module Which writes the apiserver sends to the admission webhooks: every create, and the
 * updates that change `spec`. Validation and defaulting only read the spec (metadata is the
 * apiserver's to check), so an update of labels, annotations or finalizers has nothing to review.
 * Skipping those keeps a Machine's finalizer removal, and so its deletion, independent of the
 * webhook being reachable, and spares the controllers' metadata patches two round trips each.
 */

/** The `matchConditions` of both admission webhooks (CEL; all must hold for a call). */
export const specWriteMatchConditions = [
  {
    name: 'creates-or-changes-spec',
    expression:
      "request.operation != 'UPDATE' || !has(object.spec) || !has(oldObject.spec) || object.spec != oldObject.spec",
  },
]

/**
 * The `matchConditions` of the status webhook (`machines/status`): only writes that change a
 * Machine's `status.providerStatus`, the one free-form part of a status, whose nesting depth is
 * bounded like a spec's (a status too deep to convert broke every v1alpha1 LIST of its namespace).
 * The controllers change it a few times in a Machine's life, so the webhook sees few calls.
 */
export const providerStatusWriteMatchConditions = [
  {
    name: 'changes-provider-status',
    expression:
      'has(object.status) && has(object.status.providerStatus) && (!has(oldObject.status) || !has(oldObject.status.providerStatus) || object.status.providerStatus != oldObject.status.providerStatus)',
  },
]
