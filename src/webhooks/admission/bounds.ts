/**
 * @module The shape bound every admission review passes before any handler walks its object: a
 * nesting depth the handlers (recursive by nature: defaulting, patch diffs, zod) can never
 * overflow the stack on, refused with the path where it is exceeded.
 */
import { formatFieldErrors } from '../../api/validation/field-errors'
import { depthError } from '../../api/validation/json-bounds'
import { type AdmissionRequest, type AdmissionResponse, deny } from '../review'

/** A denial (422, naming the field) when the request's object nests too deep; else undefined. */
export function boundsDenial(request: AdmissionRequest): AdmissionResponse | undefined {
  const error = depthError(request.object, '')
  if (error === undefined) return undefined
  const name = request.name ? ` ${JSON.stringify(request.name)}` : ''
  return deny(request.uid, `${request.kind.kind}${name} is invalid: ${formatFieldErrors([error])}`)
}
