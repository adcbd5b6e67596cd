/**
 * @module The fault proxy's model of what RunInstances promises and moto 5.2.5 does not keep:
 *
 * - `ClientToken` idempotency: a repeated token answers the instances the first request
 *   launched, described as they are now; the same token with other parameters answers
 *   IdempotentParameterMismatch (https://docs.aws.amazon.com/ec2/latest/devguide/ec2-api-idempotency.html).
 * - `MaxCount`: EC2 launches as many as it can up to MaxCount, and fails with
 *   InsufficientInstanceCapacity only below MinCount; moto always launches MinCount. With a
 *   cap set (`cap`), a request gets at most that many instances: the pool's free capacity at
 *   the moment of each call.
 *
 * moto numbers a request's instances in AmiLaunchIndex itself.
 */
import { launchedIds } from './instance-xml'

/** What to do with one RunInstances. */
export type LaunchPlan =
  | { kind: 'send'; params: URLSearchParams }
  | { kind: 'replay'; ids: string[] }
  | { kind: 'error'; code: string; status: number }

/** The model's memory of launches by token, and the capacity left. */
export interface LaunchModel {
  plan(params: URLSearchParams): LaunchPlan
  /** Remembers a successful answer's instances under the request's token. */
  record(body: string, params: URLSearchParams): void
  /** Instances one request gets at most (undefined: no cap). */
  cap(instances: number | undefined): void
  clear(): void
}

/** The request as EC2 compares it for idempotency: every parameter, in order. */
function requestKey(params: URLSearchParams): string {
  return [...params].map(([k, v]) => `${k}=${v}`).join('&')
}

/** A fresh model: no tokens seen, no cap. */
export function createLaunchModel(): LaunchModel {
  const byToken = new Map<string, { ids: string[]; key: string }>()
  let cap: number | undefined
  return {
    plan(params) {
      const token = params.get('ClientToken')
      const seen = token ? byToken.get(token) : undefined
      if (seen) {
        if (seen.key !== requestKey(params)) {
          return { kind: 'error', code: 'IdempotentParameterMismatch', status: 400 }
        }
        return { kind: 'replay', ids: seen.ids }
      }
      const min = Number(params.get('MinCount') ?? '1')
      const max = Math.max(min, Number(params.get('MaxCount') ?? String(min)))
      const granted = cap === undefined ? max : Math.min(max, cap)
      if (granted < min) return { kind: 'error', code: 'InsufficientInstanceCapacity', status: 500 }
      const sent = new URLSearchParams(params)
      sent.set('MinCount', String(granted))
      sent.set('MaxCount', String(granted))
      return { kind: 'send', params: sent }
    },
    record(body, params) {
      const ids = launchedIds(body)
      const token = params.get('ClientToken')
      if (token && ids.length > 0 && !byToken.has(token)) {
        byToken.set(token, { ids, key: requestKey(params) })
      }
    },
    cap(instances) {
      cap = instances
    },
    clear() {
      byToken.clear()
      cap = undefined
    },
  }
}
