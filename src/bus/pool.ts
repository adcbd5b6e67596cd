/**
 * @module A bounded pool for one-shot work (an HTTP sweep tick, the sweep function): submit()
 * waits for a free slot, so a producer walking pages never holds more than `size` tasks.
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
