/**
 * @module Shares one answer per key among callers for a while: callers that ask while the
 * answer is coming wait for the same call, and callers within `ttlMs` of it get it without a
 * call. A failed call is not kept. For lookups that change rarely and that every launch needs
 * (a MachineClass's image, subnets and offered zones: three Describe calls per Machine before).
 */
import { deadlineSignal } from './deadline-signal'

/** Answers by key, kept for a while. */
export interface Memo<V> {
  /**
   * The kept answer for `key`, or `compute`'s. `compute` runs under the memo's own deadline, as
   * its answer serves every caller; `signal` ends only this caller's wait.
   */
  get(key: string, compute: (signal: AbortSignal) => Promise<V>, signal: AbortSignal): Promise<V>
}

interface Entry<V> {
  at: number
  value: Promise<V>
}

/** Creates an empty memo; `now` (ms, monotonic) is injectable for tests. */
export function createMemo<V>(options: {
  ttlMs: number
  callTimeoutMs: number
  now?: () => number
}): Memo<V> {
  const now = options.now ?? (() => performance.now())
  const entries = new Map<string, Entry<V>>()
  const fresh = (entry: Entry<V>, t: number) => t - entry.at < options.ttlMs

  return {
    get(key, compute, signal) {
      if (signal.aborted) return Promise.reject(signal.reason)
      const t = now()
      let entry = entries.get(key)
      if (!entry || !fresh(entry, t)) {
        for (const [k, old] of entries) if (!fresh(old, t)) entries.delete(k)
        const deadline = deadlineSignal(options.callTimeoutMs)
        const created: Entry<V> = {
          at: t,
          value: compute(deadline.signal).finally(() => deadline.clear()),
        }
        created.value.catch(() => {
          if (entries.get(key) === created) entries.delete(key)
        })
        entries.set(key, created)
        entry = created
      }
      return untilAborted(entry.value, signal)
    },
  }
}

function untilAborted<V>(value: Promise<V>, signal: AbortSignal): Promise<V> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    value.then(
      (v) => {
        signal.removeEventListener('abort', onAbort)
        resolve(v)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
