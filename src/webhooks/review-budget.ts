/**
 * @module How many review bodies the webhook holds at once, in bytes: a review is read only once
 * its announced size fits in the budget, so a flood of large ConversionReviews waits (its bytes
 * stay in the sockets, TCP pushes back on the sender) instead of being parsed all at once. A
 * parsed review takes about five times its size in memory, so twenty 60 MiB reviews took the
 * process to 6.7 GB and /healthz timed out. With the body limits (8 MiB) the reviews held at once
 * stay within about 60 MiB of heap once parsed, in a 256 MiB container. Waiting is bounded: past `maxWaiting` queued reviews
 * or `maxWaitMs`, the review is refused (429 with Retry-After, which the apiserver's client-go retries).
 */

/** Gives up the bytes a review held. */
export type Release = () => void

/** A byte budget with a bounded FIFO queue. */
export interface ReviewBudget {
  /**
   * Resolves with a Release once `bytes` fit (at once when they do), or with undefined when the
   * review must be refused: the queue is full or it waited `maxWaitMs`. A review larger than the
   * whole budget is admitted alone.
   */
  admit(bytes: number): Promise<Release | undefined>
  /** Bytes held and reviews waiting, for tests and metrics. */
  usage(): { bytes: number; waiting: number }
}

/** The limits of one budget. */
export interface ReviewBudgetLimits {
  maxBytes: number
  maxWaiting: number
  maxWaitMs: number
}

interface Waiter {
  bytes: number
  resolve: (release: Release | undefined) => void
  timer: ReturnType<typeof setTimeout>
}

/** A budget of `limits.maxBytes` bytes in flight. */
export function createReviewBudget(limits: ReviewBudgetLimits): ReviewBudget {
  let held = 0
  const queue: Waiter[] = []

  const fits = (bytes: number) => held === 0 || held + bytes <= limits.maxBytes
  const take = (bytes: number): Release => {
    held += bytes
    let released = false
    return () => {
      if (released) return
      released = true
      held -= bytes
      drain()
    }
  }
  // FIFO: a large review at the head is not overtaken by smaller ones forever.
  const drain = () => {
    while (queue.length > 0 && fits((queue[0] as Waiter).bytes)) {
      const next = queue.shift() as Waiter
      clearTimeout(next.timer)
      next.resolve(take(next.bytes))
    }
  }

  return {
    admit(bytes) {
      if (queue.length === 0 && fits(bytes)) return Promise.resolve(take(bytes))
      if (queue.length >= limits.maxWaiting) return Promise.resolve(undefined)
      return new Promise((resolve) => {
        const waiter: Waiter = {
          bytes,
          resolve,
          timer: setTimeout(() => {
            queue.splice(queue.indexOf(waiter), 1)
            resolve(undefined)
          }, limits.maxWaitMs),
        }
        queue.push(waiter)
      })
    },
    usage: () => ({ bytes: held, waiting: queue.length }),
  }
}

/** Reviews up to this size (announced) have a budget of their own: a flood of large ones never delays them. */
export const SMALL_REVIEW_BYTES = 1024 * 1024

/** The bytes in flight of large and of small reviews, and how long a review may wait. */
export interface ReviewBudgetOptions {
  /** Bytes of large reviews in flight (default 8 MiB, one review at the largest body limit). */
  largeBytes?: number
  /** Bytes of small reviews in flight (default 4 MiB). */
  smallBytes?: number
}

/** Admits a review of `bytes` into the small or the large budget. */
export function createReviewBudgets(
  options: ReviewBudgetOptions = {},
): (bytes: number) => Promise<Release | undefined> {
  // The apiserver calls admission with at most 30 s and conversion with 30 s; waiting longer only
  // holds a socket for an answer nobody reads. A refusal (429) is retried by the apiserver.
  const large = createReviewBudget({
    maxBytes: options.largeBytes ?? 8 * 1024 * 1024,
    maxWaiting: 32,
    maxWaitMs: 10_000,
  })
  const small = createReviewBudget({
    maxBytes: options.smallBytes ?? 4 * 1024 * 1024,
    maxWaiting: 256,
    maxWaitMs: 4_000,
  })
  return (bytes) => (bytes <= SMALL_REVIEW_BYTES ? small : large).admit(bytes)
}
