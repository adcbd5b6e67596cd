/**
 * @module Turns apiserver failures into a small set of reasons. Only this file looks at HTTP codes
 * and `metav1.Status` bodies; everything above it matches on `KubeApiError.reason`.
 * https://kubernetes.io/docs/reference/using-api/api-concepts/#http-status-codes
 */
// The class's own file, not the package index (see kube-config.ts).
import { ApiException } from '@kubernetes/client-node/dist/gen/apis/exception.js'

/** The reasons the runtime and reconcilers act on; anything else is `Unknown`. */
export type KubeReason =
  | 'Conflict'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Invalid'
  | 'TooManyRequests'
  | 'Gone'
  | 'Forbidden'
  | 'Unauthorized'
  | 'BadRequest'
  | 'ServerError'
  | 'Unknown'

/** An apiserver call that failed, with the parsed reason and the server's message. */
export class KubeApiError extends Error {
  override readonly name = 'KubeApiError'
  readonly code: number
  readonly reason: KubeReason
  /** From the Retry-After header or `details.retryAfterSeconds`, when the server sent one. */
  readonly retryAfterMs: number | undefined

  constructor(init: { code: number; reason: KubeReason; message: string; retryAfterMs?: number }) {
    super(init.message)
    this.code = init.code
    this.reason = init.reason
    this.retryAfterMs = init.retryAfterMs
  }
}

const reasonByCode: Record<number, KubeReason> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  410: 'Gone',
  422: 'Invalid',
  429: 'TooManyRequests',
}

const knownReasons = new Set<string>([
  'Conflict',
  'NotFound',
  'AlreadyExists',
  'Invalid',
  'TooManyRequests',
  'Gone',
  'Forbidden',
  'Unauthorized',
  'BadRequest',
])

interface StatusBody {
  reason?: string
  message?: string
  details?: { retryAfterSeconds?: number; causes?: Array<{ message?: string }> }
}

function parseStatus(body: unknown): StatusBody {
  if (typeof body === 'object' && body !== null && !Buffer.isBuffer(body)) return body as StatusBody
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : body
  if (typeof text !== 'string' || text === '') return {}
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === 'object' && parsed !== null ? (parsed as StatusBody) : {}
  } catch {
    return { message: text.slice(0, 500) }
  }
}

/**
 * The reason for an HTTP status and `metav1.Status` body. 409 is `AlreadyExists` on create and
 * `Conflict` on a stale resourceVersion; 410 is `Expired`/`Gone` for old watch/list versions.
 */
export function kubeReason(code: number, status: { reason?: string }): KubeReason {
  if (status.reason === 'Expired') return 'Gone'
  if (status.reason && knownReasons.has(status.reason)) return status.reason as KubeReason
  if (code === 409) return 'Conflict'
  if (code >= 500) return 'ServerError'
  return reasonByCode[code] ?? 'Unknown'
}

/**
 * The status message plus its causes: a refused eviction names the PodDisruptionBudget only in
 * `details.causes` ("The disruption budget db needs 2 healthy pods and has 2 currently").
 */
function withCauses(status: StatusBody, code: number): string {
  const message = status.message ?? `apiserver answered ${code}`
  const causes = (status.details?.causes ?? [])
    .map((c) => c.message)
    .filter((m): m is string => typeof m === 'string' && m !== '' && !message.includes(m))
  return causes.length === 0 ? message : `${message} (${causes.join('; ')})`
}

/** Builds a KubeApiError from an HTTP status, its body and headers. */
export function kubeApiError(
  code: number,
  body: unknown,
  headers: Record<string, string | string[] | undefined> = {},
): KubeApiError {
  const status = parseStatus(body)
  const header = headers['retry-after']
  const seconds = Number(Array.isArray(header) ? header[0] : header)
  const retrySeconds = Number.isFinite(seconds) ? seconds : status.details?.retryAfterSeconds
  return new KubeApiError({
    code,
    reason: kubeReason(code, status),
    message: withCauses(status, code),
    ...(retrySeconds !== undefined && retrySeconds > 0
      ? { retryAfterMs: retrySeconds * 1000 }
      : {}),
  })
}

/** A KubeApiError for anything the client layer may throw (ApiException included), else undefined. */
export function asKubeApiError(error: unknown): KubeApiError | undefined {
  if (error instanceof KubeApiError) return error
  if (error instanceof ApiException) {
    return kubeApiError(error.code, error.body, error.headers)
  }
  return undefined
}

/** True when `error` is an apiserver failure with one of `reasons`. */
export function hasKubeReason(error: unknown, ...reasons: KubeReason[]): boolean {
  const kube = asKubeApiError(error)
  return kube !== undefined && reasons.includes(kube.reason)
}
