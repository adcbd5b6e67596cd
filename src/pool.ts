/**
 * @module The one concurrency limiter: a bounded pool for one-shot work (an HTTP sweep tick, the
 * sweep function, a JetStream batch): submit() waits for a free slot, so a producer walking pages
 * never holds more than `size` tasks; `mapConcurrently` runs a list through one.
 */

/** A pool of `size` concurrent tasks. */
export interface Pool {
  /** Starts `task` once a slot is free; resolves when it has started. */
  submit(task: () => Promise<void>): Promise<void>
  /** Resolves when every submitted task has finished. */
  drain(): Promise<void>
}

/** Creates a pool; task errors are the task's business (wrap them). */
export function createPool(size: number): Pool {
  const running = new Set<Promise<void>>()
  return {
    async submit(task) {
      while (running.size >= Math.max(1, size)) await Promise.race(running)
      const promise: Promise<void> = task()
        .catch(() => undefined)
        .finally(() => running.delete(promise))
      running.add(promise)
    },
    async drain() {
      while (running.size > 0) await Promise.race(running)
    },
  }
}

/**
 * Runs `work` over `items` with at most `limit` at once; results keep the items' order. Every item
 * is attempted; the first failure is thrown once all have settled.
 */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const pool = createPool(limit)
  const results: R[] = new Array(items.length)
  const failures: unknown[] = []
  for (const [i, item] of items.entries()) {
    await pool.submit(async () => {
      try {
        results[i] = await work(item)
      } catch (error) {
        failures.push(error)
      }
    })
  }
  await pool.drain()
  if (failures.length > 0) throw failures[0]
  return results
}
