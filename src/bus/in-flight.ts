/**
 * @module The work a transport started and has not finished (mapping a change to keys, publishing
 * them), so its stop can wait for it: a mapping still running when the apiserver goes away fails
 * and logs a warning for nothing, as the first Ctrl-C of `npm run dev` showed.
 */

/** Tracks promises until they settle. */
export interface InFlight {
  /** Holds `work` until it settles; returns it. */
  track<T>(work: Promise<T>): Promise<T>
  /** Resolves once everything tracked so far, and what that starts meanwhile, has settled. */
  settled(): Promise<void>
}

/** An empty InFlight. */
export function inFlight(): InFlight {
  const running = new Set<Promise<unknown>>()
  return {
    track(work) {
      running.add(work)
      const forget = () => running.delete(work)
      work.then(forget, forget)
      return work
    },
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running])
    },
  }
}
