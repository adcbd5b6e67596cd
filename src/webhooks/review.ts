/** @module AdmissionReview and ConversionReview v1: parsing requests and building responses. */
import { z } from 'zod'
import { lazySchema } from '../api/shared/lazy-schema'
import type { JsonPatchOperation } from './json-patch'

const objectSchema = lazySchema(() => z.record(z.string(), z.unknown()))

/** The parts of an AdmissionReview v1 request the webhook reads. */
export const admissionReviewSchema = lazySchema(() =>
  z.object({
    apiVersion: z.literal('admission.k8s.io/v1'),
    kind: z.literal('AdmissionReview'),
    request: z.object({
      uid: z.string().min(1).max(128),
      kind: z.object({ group: z.string(), version: z.string(), kind: z.string() }),
      operation: z.enum(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']),
      subResource: z.string().optional(),
      namespace: z.string().optional(),
      name: z.string().optional(),
      object: objectSchema().nullish(),
      oldObject: objectSchema().nullish(),
      dryRun: z.boolean().optional(),
    }),
  }),
)

/** An AdmissionReview request. */
export type AdmissionRequest = z.infer<ReturnType<typeof admissionReviewSchema>>['request']

/** The parts of a ConversionReview v1 request the webhook reads. */
export const conversionReviewSchema = lazySchema(() =>
  z.object({
    apiVersion: z.literal('apiextensions.k8s.io/v1'),
    kind: z.literal('ConversionReview'),
    request: z.object({
      uid: z.string().min(1).max(128),
      desiredAPIVersion: z.string().min(1).max(256),
      objects: z.array(z.unknown()),
    }),
  }),
)

/** A ConversionReview request. */
export type ConversionRequest = z.infer<ReturnType<typeof conversionReviewSchema>>['request']

/** The response half of an AdmissionReview. */
export interface AdmissionResponse {
  uid: string
  allowed: boolean
  status?: { code: number; reason?: string; message: string }
  warnings?: string[]
  patchType?: 'JSONPatch'
  patch?: string
}

/** Wraps a response into the AdmissionReview envelope the apiserver expects back. */
export function admissionReview(response: AdmissionResponse) {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }
}

/** Allows the request, with optional warnings and JSON patch. */
export function allow(
  uid: string,
  options: { warnings?: string[]; patch?: JsonPatchOperation[] } = {},
): AdmissionResponse {
  const response: AdmissionResponse = { uid, allowed: true }
  if (options.warnings !== undefined && options.warnings.length > 0)
    response.warnings = options.warnings
  if (options.patch !== undefined && options.patch.length > 0) {
    response.patchType = 'JSONPatch'
    response.patch = Buffer.from(JSON.stringify(options.patch)).toString('base64')
  }
  return response
}

/** Denies the request with `message` (shown to the user by kubectl). */
export function deny(uid: string, message: string, code = 422): AdmissionResponse {
  return {
    uid,
    allowed: false,
    status: { code, reason: code === 422 ? 'Invalid' : 'InternalError', message },
  }
}

/** Wraps converted objects (or a failure) into the ConversionReview envelope. */
export function conversionReview(
  uid: string,
  outcome: { objects: unknown[] } | { failure: string },
) {
  const response =
    'objects' in outcome
      ? { uid, convertedObjects: outcome.objects, result: { status: 'Success' } }
      : { uid, convertedObjects: [], result: { status: 'Failure', message: outcome.failure } }
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response }
}

/** A compact description of why a review failed to parse (for the 400 body). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '<root>'}: ${issue.message}`)
    .join('; ')
}
