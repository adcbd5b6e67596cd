/** @module Schemas built on first use, so importing the API does not build every kind's schemas. */

/**
 * Returns a function that builds the value with `build` on its first call and returns that same
 * value from then on. Building the zod schemas of every kind, version and provider at import cost
 * about 20 ms of CPU and 8 MB at each process start, before a process that needs one of them (or
 * none: a worker without MachineHealthChecks) has done anything. The value is pure and the same
 * for the whole process, so keeping it is not state.
 */
export function lazySchema<T>(build: () => T): () => T {
  let built: T | undefined
  return () => {
    built ??= build()
    return built
  }
}
