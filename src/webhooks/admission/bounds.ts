/**
 * @module The shape bound every admission review passes before any handler walks its object: a
 * nesting depth the handlers (recursive by nature: defaulting, patch diffs, zod) can never
 * overflow the stack on, refused with the path where it is exceeded; and for a Machine status
 * write, the size of its providerStatus.
 */
import { formatFieldErrors } from '../../api/validation/field-errors'
import { depthError, providerDataSizeError } from '../../api/validation/json-bounds'
import { type AdmissionRequest, type AdmissionResponse, deny } from '../review'

/** A denial (422, naming the field) when the request's object nests too deep; else undefined. */
export function boundsDenial(request: AdmissionRequest): AdmissionResponse | undefined {
  const error = depthError(request.object, '') ?? providerStatusError(request)
  if (error === undefined) return undefined
  const name = request.name ? ` ${JSON.stringify(request.name)}` : ''
  return deny(request.uid, `${request.kind.kind}${name} is invalid: ${formatFieldErrors([error])}`)
}

// A Machine status write (the status webhook's) is also held to the provider data size bound.
function providerStatusError(request: AdmissionRequest) {
  if (request.subResource !== 'status') return undefined
  const status = request.object?.status as { providerStatus?: unknown } | undefined
  if (status?.providerStatus === undefined) return undefined
  return providerDataSizeError(status.providerStatus, 'status.providerStatus')
}
