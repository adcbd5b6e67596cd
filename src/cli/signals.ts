/** @module Graceful stop of a long-running command on SIGTERM / SIGINT. */

/** On the first SIGTERM or SIGINT, runs `stop` and exits 0 (1 when stop fails). */
export function stopOnSignals(stop: (signal: string) => Promise<void>): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      stop(signal).then(
        () => process.exit(0),
        () => process.exit(1),
      )
    })
  }
}
