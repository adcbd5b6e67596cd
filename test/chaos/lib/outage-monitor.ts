/**
 * @module Watches a worker process from the outside while its apiserver comes and goes: whether it
 * stays the same live process (its HTTP server answers, it was started once) and when its
 * readiness flips, with times relative to the monitor's start.
 */
import type { WorkerProcess } from './worker-process'

/** One readiness flip, `atMs` after the monitor started. */
export interface ReadinessTransition {
  atMs: number
  ready: boolean
}

export interface WorkerMonitor {
  /** Milliseconds since the monitor started. */
  elapsed(): number
  transitions(): ReadinessTransition[]
  /** Polls in which the worker's HTTP server did not answer (it died or hung). */
  unanswered(): number
  /** The first time after `fromMs` at which the worker reported ready, if any. */
  readyAfter(fromMs: number): number | undefined
  stop(): Promise<void>
}

/**
 * Polls every `periodMs`: /metrics proves the process and its HTTP server are up (it is served
 * next to /healthz by the same app), /readyz gives readiness.
 */
export function monitorWorker(worker: WorkerProcess, periodMs = 200): WorkerMonitor {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const transitions: ReadinessTransition[] = []
  let unanswered = 0
  let stopped = false
  const loop = (async () => {
    while (!stopped) {
      const alive = await worker.metrics().then(
        () => true,
        () => false,
      )
      if (!alive) unanswered++
      const ready = alive && (await worker.ready())
      if (transitions.at(-1)?.ready !== ready) transitions.push({ atMs: elapsed(), ready })
      await new Promise((resolve) => setTimeout(resolve, periodMs))
    }
  })()
  return {
    elapsed,
    transitions: () => [...transitions],
    unanswered: () => unanswered,
    readyAfter: (fromMs) => transitions.find((t) => t.ready && t.atMs >= fromMs)?.atMs,
    async stop() {
      stopped = true
      await loop
    },
  }
}
