/** @module RuntimeDeps for starting a worker or reconcile function inside a test process. */
import { Registry } from 'prom-client'
import type { RuntimeDeps } from '../../src/deps'
import { createRuntimeMetrics } from '../../src/observability/runtime-metrics'
import type { ReconcileDeps } from '../../src/reconcile/runtime/controller'
import { realTimers } from '../../src/timers'

/** `base` plus a fresh metrics registry, real timers and a close that leaves `base.kube` open. */
export function runtimeDepsOf<D extends ReconcileDeps>(base: D): D & RuntimeDeps {
  const registry = new Registry()
  return {
    ...base,
    registry,
    metrics: createRuntimeMetrics(registry),
    timers: realTimers(),
    close: () => {},
  }
}
