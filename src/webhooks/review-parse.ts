/**
 * @module Reads the AdmissionReview and ConversionReview envelopes. Every request is one of the
 * common shapes the apiserver sends, so each is checked by hand first (no allocation beyond the
 * result); anything else goes to the zod schemas in review.ts, which decide and word the 400.
 */
import type { z } from 'zod'
import {
  type AdmissionRequest,
  admissionReviewSchema,
  type ConversionRequest,
  conversionReviewSchema,
  describeIssues,
} from './review'

/** A parsed envelope, or why the body is not one (the text of the HTTP 400). */
export type Parsed<T> = { ok: true; request: T } | { ok: false; error: string }

const OPERATIONS = new Set(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'])

/** The request of an AdmissionReview v1, as admissionReviewSchema would return it. */
export function parseAdmissionReview(body: unknown): Parsed<AdmissionRequest> {
  return parseReview(body, fastAdmissionRequest, admissionReviewSchema, 'an AdmissionReview v1')
}

/** The request of a ConversionReview v1, as conversionReviewSchema would return it. */
export function parseConversionReview(body: unknown): Parsed<ConversionRequest> {
  return parseReview(body, fastConversionRequest, conversionReviewSchema, 'a ConversionReview v1')
}

function parseReview<T>(
  body: unknown,
  fast: (body: unknown) => T | undefined,
  // Built only when the fast reader gives up (a malformed review).
  schema: () => z.ZodType<{ request: T }>,
  what: string,
): Parsed<T> {
  const request = fast(body)
  if (request !== undefined) return { ok: true, request }
  const parsed = schema().safeParse(body)
  return parsed.success
    ? { ok: true, request: parsed.data.request }
    : { ok: false, error: `not ${what}: ${describeIssues(parsed.error)}` }
}

type Raw = Record<string, unknown>

function isRecord(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isUid(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= 128
}

const optionalString = (value: unknown) => value === undefined || typeof value === 'string'
const optionalObject = (value: unknown) => value === undefined || value === null || isRecord(value)

// Undefined when the body is not exactly what the schema accepts: the schema then has the last word.
function fastAdmissionRequest(body: unknown): AdmissionRequest | undefined {
  if (!isRecord(body) || body.apiVersion !== 'admission.k8s.io/v1') return undefined
  if (body.kind !== 'AdmissionReview' || !isRecord(body.request)) return undefined
  const { uid, kind, operation, subResource, namespace, name, object, oldObject, dryRun } =
    body.request
  if (!isUid(uid) || !isRecord(kind)) return undefined
  const { group, version, kind: kindName } = kind
  if (typeof group !== 'string' || typeof version !== 'string' || typeof kindName !== 'string')
    return undefined
  if (typeof operation !== 'string' || !OPERATIONS.has(operation)) return undefined
  if (!optionalString(namespace) || !optionalString(name) || !optionalString(subResource))
    return undefined
  if (!optionalObject(object) || !optionalObject(oldObject)) return undefined
  if (dryRun !== undefined && typeof dryRun !== 'boolean') return undefined
  // Only the keys the schema keeps, like zod's output (it strips the rest).
  const request: AdmissionRequest = {
    uid,
    kind: { group, version, kind: kindName },
    operation: operation as AdmissionRequest['operation'],
  }
  if (subResource !== undefined) request.subResource = subResource
  if (namespace !== undefined) request.namespace = namespace
  if (name !== undefined) request.name = name
  if (object !== undefined) request.object = object as AdmissionRequest['object']
  if (oldObject !== undefined) request.oldObject = oldObject as AdmissionRequest['oldObject']
  if (dryRun !== undefined) request.dryRun = dryRun
  return request
}

function fastConversionRequest(body: unknown): ConversionRequest | undefined {
  if (!isRecord(body) || body.apiVersion !== 'apiextensions.k8s.io/v1') return undefined
  if (body.kind !== 'ConversionReview' || !isRecord(body.request)) return undefined
  const { uid, desiredAPIVersion, objects } = body.request
  if (!isUid(uid) || !Array.isArray(objects)) return undefined
  if (typeof desiredAPIVersion !== 'string') return undefined
  if (desiredAPIVersion.length < 1 || desiredAPIVersion.length > 256) return undefined
  return { uid, desiredAPIVersion, objects }
}
