/**
 * @module The fault proxy's throttling model: EC2's account budget as token buckets, so a
 * benchmark measures behaviour under the real budget and not only moto's speed. EC2 evaluates
 * request tokens per action (each request takes one) and, for RunInstances and
 * TerminateInstances, resource tokens too (one per instance); a request that finds a bucket empty
 * fails with RequestLimitExceeded and takes nothing.
 * https://docs.aws.amazon.com/ec2/latest/devguide/ec2-api-throttling.html
 */

/** One bucket: its capacity and the tokens it gets back each second. */
export interface Bucket {
  size: number
  refillPerSecond: number
}

/** The model's buckets. */
export interface ThrottleModel {
  /** Request tokens of each Describe* action. */
  nonMutating: Bucket
  /** Request tokens of each other action. */
  mutating: Bucket
  /** Instance tokens per action (RunInstances: instances asked; TerminateInstances: ids). */
  resources: Record<string, Bucket>
}

/** EC2's documented default buckets (devguide, "Request token bucket sizes and refill rates"). */
export const ec2Budget: ThrottleModel = {
  nonMutating: { size: 100, refillPerSecond: 20 },
  mutating: { size: 50, refillPerSecond: 5 },
  resources: {
    RunInstances: { size: 1000, refillPerSecond: 2 },
    TerminateInstances: { size: 1000, refillPerSecond: 20 },
  },
}

/** Decides per request whether the budget lets it through. */
export interface Throttle {
  /** Takes the request's tokens and answers true, or takes none and answers false. */
  admit(action: string, params: URLSearchParams, now: number): boolean
}

interface Level {
  tokens: number
  at: number
}

/** Instance tokens a request takes from its action's resource bucket. */
export function resourceTokens(action: string, params: URLSearchParams): number {
  if (action === 'RunInstances') return Number(params.get('MaxCount') ?? '1')
  if (action === 'TerminateInstances') {
    let n = 0
    while (params.has(`InstanceId.${n + 1}`)) n += 1
    return n
  }
  return 0
}

/** A throttle with full buckets; `now` is in ms. */
export function createThrottle(model: ThrottleModel): Throttle {
  const levels = new Map<string, Level>()
  function available(key: string, bucket: Bucket, now: number): number {
    const level = levels.get(key) ?? { tokens: bucket.size, at: now }
    level.tokens = Math.min(
      bucket.size,
      level.tokens + ((now - level.at) / 1000) * bucket.refillPerSecond,
    )
    level.at = now
    levels.set(key, level)
    return level.tokens
  }
  return {
    admit(action, params, now) {
      const request = action.startsWith('Describe') ? model.nonMutating : model.mutating
      const resource = model.resources[action]
      const needed = resource ? resourceTokens(action, params) : 0
      const requestOk = available(`request/${action}`, request, now) >= 1
      const resourceOk = !resource || available(`resource/${action}`, resource, now) >= needed
      if (!requestOk || !resourceOk) return false
      const take = (key: string, n: number) => {
        const level = levels.get(key)
        if (level) level.tokens -= n
      }
      take(`request/${action}`, 1)
      if (resource) take(`resource/${action}`, needed)
      return true
    },
  }
}
