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
