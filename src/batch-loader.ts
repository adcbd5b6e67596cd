/**
 * @module Coalesces lookups by key into few calls. A key asked while `maxInFlight` calls are out
 * waits, and joins the next call with every other key asked meanwhile (up to `maxKeys` a call). A
 * quiet caller waits one event-loop turn; under load the calls grow instead of multiplying. Each
 * Running Machine reading its own instance made 2,000 DescribeInstances a sweep at 1,000 Machines,
 * which saturated moto and would spend EC2's read budget (issue 38).
 */
import { deadlineSignal } from './deadline-signal'

/** Loads values by key, many keys a call. */
export interface BatchLoader<K, V> {
  /**
   * The value the call found for `key`, or undefined when it found none. Rejects with the call's
   * error, or with the signal's reason once `signal` aborts (the call goes on for the others).
   */
  load(key: K, signal: AbortSignal): Promise<V | undefined>
}

/** How a loader batches and what one call is. */
export interface BatchLoaderOptions<K, V> {
  /** Keys in one call at most. */
  maxKeys: number
  /** Calls out at once; more keys wait and join the next call. */
  maxInFlight: number
  /** How long one call may take: no caller's signal bounds a call that answers many. */
  callTimeoutMs: number
  /** One call for distinct `keys`: what it found, by key. */
  run(keys: K[], signal: AbortSignal): Promise<ReadonlyMap<K, V>>
}

interface Waiter<V> {
  resolve(value: V | undefined): void
  reject(error: unknown): void
}

/** Creates a loader that holds nothing but the keys waiting for a call. */
export function createBatchLoader<K, V>(options: BatchLoaderOptions<K, V>): BatchLoader<K, V> {
  const waiting = new Map<K, Waiter<V>[]>()
  let inFlight = 0
  let scheduled = false

  function schedule(): void {
    if (scheduled) return
    scheduled = true
    // One turn of the event loop, so the keys asked in the same burst share the first call.
    setImmediate(() => {
      scheduled = false
      flush()
    })
  }

  function flush(): void {
    while (waiting.size > 0 && inFlight < options.maxInFlight) {
      const batch = new Map<K, Waiter<V>[]>()
      for (const [key, waiters] of waiting) {
        if (batch.size >= options.maxKeys) break
        batch.set(key, waiters)
      }
      for (const key of batch.keys()) waiting.delete(key)
      void send(batch)
    }
  }

  async function send(batch: Map<K, Waiter<V>[]>): Promise<void> {
    inFlight += 1
    const deadline = deadlineSignal(options.callTimeoutMs)
    try {
      const found = await options.run([...batch.keys()], deadline.signal)
      for (const [key, waiters] of batch)
        for (const waiter of waiters) waiter.resolve(found.get(key))
    } catch (error) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error)
    } finally {
      deadline.clear()
      inFlight -= 1
      flush()
    }
  }

  function forget(key: K, waiter: Waiter<V>): void {
    const waiters = waiting.get(key)
    if (!waiters) return
    const rest = waiters.filter((w) => w !== waiter)
    if (rest.length > 0) waiting.set(key, rest)
    else waiting.delete(key)
  }

  return {
    load(key, signal) {
      if (signal.aborted) return Promise.reject(signal.reason)
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          // Not sent yet: nobody waits for this key any more, so no call carries it.
          forget(key, waiter)
          reject(signal.reason)
        }
        const waiter: Waiter<V> = {
          resolve(value) {
            signal.removeEventListener('abort', onAbort)
            resolve(value)
          },
          reject(error) {
            signal.removeEventListener('abort', onAbort)
            reject(error)
          },
        }
        signal.addEventListener('abort', onAbort, { once: true })
        const waiters = waiting.get(key)
        if (waiters) waiters.push(waiter)
        else waiting.set(key, [waiter])
        schedule()
      })
    },
  }
}
