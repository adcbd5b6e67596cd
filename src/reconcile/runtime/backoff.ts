/**
 * @module Per-key exponential backoff for transient failures: base * 2^(failures-1), capped, with
 * deterministic jitter so a fleet of failing keys does not retry in lockstep.
 */
import { formatKey, type ObjectKey } from '../../kube/object-key'

/** Backoff parameters (defaults: 500 ms doubling to 5 min). */
export interface BackoffPolicy {
  baseMs: number
  maxMs: number
  /** Fraction of the delay spread by jitter, 0..1 (default 0.1). */
  jitter?: number
}

/** The default policy of the runner. */
export const defaultBackoff: BackoffPolicy = { baseMs: 500, maxMs: 300_000, jitter: 0.1 }

/**
 * The delay before retry number `failures` (1 = first failure). `seed` in [0,1) picks the jitter,
 * so equal inputs give equal delays. Never below `baseMs`, never above `maxMs`.
 */
export function backoffDelay(failures: number, policy: BackoffPolicy, seed = 0.5): number {
  const exponent = Math.min(Math.max(failures, 1) - 1, 30)
  const raw = Math.min(policy.baseMs * 2 ** exponent, policy.maxMs)
  const spread = raw * (policy.jitter ?? 0.1)
  const jittered = raw - spread / 2 + spread * seed
  return Math.round(Math.min(policy.maxMs, Math.max(policy.baseMs, jittered)))
}

/** A stable number in [0,1) from a key and attempt, so jitter differs per key but is reproducible. */
export function jitterSeed(key: ObjectKey, failures: number): number {
  let hash = 2166136261
  for (const ch of `${formatKey(key)}#${failures}`) {
    hash ^= ch.charCodeAt(0)
    hash = Math.imul(hash, 16777619)
  }
  return (hash >>> 0) / 2 ** 32
}

/**
 * Counts consecutive failures per key. Only failing keys take memory; a success forgets the key,
 * so the map stays as small as the set of currently failing objects.
 */
export interface BackoffTracker {
  /** Records a failure and returns the delay before the next attempt. */
  failure(key: ObjectKey): number
  /** Forgets the key's failures. */
  success(key: ObjectKey): void
  /** Consecutive failures recorded for the key. */
  failures(key: ObjectKey): number
}

/** A tracker using `policy`. */
export function createBackoffTracker(policy: BackoffPolicy = defaultBackoff): BackoffTracker {
  const counts = new Map<string, number>()
  return {
    failure(key) {
      const id = formatKey(key)
      const n = (counts.get(id) ?? 0) + 1
      counts.set(id, n)
      return backoffDelay(n, policy, jitterSeed(key, n))
    },
    success(key) {
      counts.delete(formatKey(key))
    },
    failures(key) {
      return counts.get(formatKey(key)) ?? 0
    },
  }
}
