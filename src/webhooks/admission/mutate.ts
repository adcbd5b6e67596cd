/** @module /mutate: defaults an object and answers with the JSON patch. */
import { defaultObject } from '../../api/defaults/default-object'
import { HUB_API_VERSION } from '../../api/group'
import { diffJson } from '../json-patch'
import { type AdmissionRequest, type AdmissionResponse, allow } from '../review'
import { requestKind, toHubObject } from './hub-object'

/**
 * Computes the defaulting patch for a CREATE or UPDATE. Other operations, and objects sent at a
 * version other than the hub (whose patch would not apply), are allowed unchanged.
 */
export function mutate(request: AdmissionRequest): AdmissionResponse {
  const kind = requestKind(request)
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return allow(request.uid)
  const object = request.object
  if (object === null || object === undefined) return allow(request.uid)
  const apiVersion = object.apiVersion ?? HUB_API_VERSION
  if (apiVersion !== HUB_API_VERSION) return allow(request.uid)
  const old = toHubObject(request.oldObject, kind)
  const withName = nameFromRequest(object, request)
  const defaulted = defaultObject(kind, withName, old)
  return allow(request.uid, { patch: diffJson(object, defaulted) })
}

// With generateName the name is not known yet at admission time; the request carries it when it is.
function nameFromRequest(object: Record<string, unknown>, request: AdmissionRequest) {
  const metadata = (object.metadata ?? {}) as Record<string, unknown>
  if (typeof metadata.name === 'string' || request.name === undefined || request.name === '')
    return object
  return { ...object, metadata: { ...metadata, name: request.name } }
}
