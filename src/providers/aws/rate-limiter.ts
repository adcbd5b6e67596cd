/**
 * @module A token bucket that spaces out EC2 calls per client (one client per region and
 * credentials, i.e. per MachineClass in practice), so a scale-up wave cannot trip account-wide
 * EC2 throttling that would also slow every other tool in the account.
 */

/** Waits for a call slot. */
export interface RateLimiter {
  /** Resolves when a call may start; rejects with the signal's reason if aborted first. */
  take(signal?: AbortSignal): Promise<void>
}

/**
 * Allows `burst` calls at once and `perSecond` on average (GCRA: each call books the next slot
 * on a virtual schedule). `now` (ms, monotonic) is injectable for tests.
 */
export function createRateLimiter(options: {
  perSecond: number
  burst?: number
  now?: () => number
}): RateLimiter {
  const now = options.now ?? (() => performance.now())
  const burst = options.burst ?? Math.max(1, Math.ceil(options.perSecond))
  const interval = 1000 / options.perSecond
  // The theoretical arrival time of the next call; waiters book slots in order, so none starves.
  let tat = Number.NEGATIVE_INFINITY

  return {
    async take(signal) {
      signal?.throwIfAborted()
      const t = now()
      tat = Math.max(tat, t)
      const waitMs = tat - t - (burst - 1) * interval
      tat += interval
      if (waitMs <= 0) return
      try {
        await sleep(waitMs, signal)
      } catch (error) {
        // The call never happens: hand its slot back so the next caller does not wait for it.
        tat -= interval
        throw error
      }
    },
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
