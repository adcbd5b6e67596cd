/** @module Prometheus metrics: one registry per process, passed to whatever records metrics. */
import { collectDefaultMetrics, Registry } from 'prom-client'

/** A registry with the default process metrics (memory, CPU, event loop lag). */
export function createMetricsRegistry(options: { defaultMetrics?: boolean } = {}): Registry {
  const registry = new Registry()
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry })
  return registry
}
