/** @module Brings the object of an admission request to the hub version, whatever version it came in. */
import { convertObject } from '../../api/conversion/convert'
import { API_GROUP, HUB_API_VERSION } from '../../api/group'
import { isKind, type Kind } from '../../api/kinds'
import type { AdmissionRequest } from '../review'

/** Why a review cannot be handled at all (answered with HTTP 400). */
export class BadReviewError extends Error {
  override readonly name = 'BadReviewError'
}

/** The kind of the request; throws BadReviewError for anything outside the API group. */
export function requestKind(request: AdmissionRequest): Kind {
  const { group, kind } = request.kind
  if (group !== API_GROUP || !isKind(kind)) {
    throw new BadReviewError(`request.kind: ${group}/${kind} is not served by this webhook`)
  }
  return kind
}

/**
 * `object` at the hub version (converted up when a v1alpha1 webhook registration sent it), or
 * undefined when absent. The envelope is filled from the request when the object lacks it.
 */
export function toHubObject(
  object: Record<string, unknown> | null | undefined,
  kind: Kind,
): Record<string, unknown> | undefined {
  if (object === null || object === undefined) return undefined
  // The usual case, a hub object with its envelope: nothing to fill in, no copy (never mutated).
  if (object.apiVersion === HUB_API_VERSION && object.kind !== undefined) return object
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : HUB_API_VERSION
  const withEnvelope = { ...object, apiVersion, kind: object.kind ?? kind }
  if (apiVersion === HUB_API_VERSION) return withEnvelope
  try {
    return convertObject(withEnvelope, HUB_API_VERSION)
  } catch (error) {
    throw new BadReviewError(`request.object: ${(error as Error).message}`)
  }
}
