/** @module /convert: converts every object of a ConversionReview, keeping order and identity. */
import { convertObject } from '../../api/conversion/convert'
import { type ConversionRequest, conversionReview } from '../review'

/**
 * Converts all objects to `desiredAPIVersion`. One failing object fails the whole review (the
 * apiserver requires all or nothing), naming its index and the reason.
 */
export function convertReview(request: ConversionRequest) {
  const converted: unknown[] = []
  for (const [index, object] of request.objects.entries()) {
    try {
      converted.push(convertObject(object, request.desiredAPIVersion))
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      return conversionReview(request.uid, { failure: `objects[${index}]: ${reason}` })
    }
  }
  return conversionReview(request.uid, { objects: converted })
}
