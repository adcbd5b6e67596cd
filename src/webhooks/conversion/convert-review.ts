/** @module /convert: converts every object of a ConversionReview, keeping order and identity. */
import { convertObject } from '../../api/conversion/convert'
import { type ConversionRequest, conversionReview } from '../review'

// What a RangeError from the converters or JSON.stringify means here: the object is nested deeper
// than the stack allows (the apiserver stores up to 10,000 levels; V8 serializes about 4,000).
const TOO_DEEP = 'nested too deeply to convert'

function reason(error: unknown): string {
  if (error instanceof RangeError) return TOO_DEEP
  return error instanceof Error ? error.message : String(error)
}

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
      return conversionReview(request.uid, { failure: `objects[${index}]: ${reason(error)}` })
    }
  }
  return conversionReview(request.uid, { objects: converted })
}

/**
 * The answer to `request` as JSON text. An object too deep to serialize fails the review with its
 * index instead of throwing (which answered HTTP 500): the apiserver reports a failed conversion
 * with our message, and a v1alpha1 LIST names the object.
 */
export function convertReviewJson(request: ConversionRequest): string {
  const review = convertReview(request)
  try {
    return JSON.stringify(review)
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    const index = review.response.convertedObjects.findIndex((object) => !serializes(object))
    const failure = `objects[${index}]: ${TOO_DEEP}`
    return JSON.stringify(conversionReview(request.uid, { failure }))
  }
}

function serializes(value: unknown): boolean {
  try {
    JSON.stringify(value)
    return true
  } catch {
    return false
  }
}
