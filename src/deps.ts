/**
 * @module Builds the process-wide dependencies of the reconcile functions (kube client, clock,
 * logger, metrics) from the environment. Only the wiring layer (`functions/`, `src/cli/`) calls it;
 * everything else receives deps.
 */
import type { Registry } from 'prom-client'
import { type Clock, systemClock } from './clock'
import { createKubeClient } from './kube/dynamic-client'
import { createHttpTransport } from './kube/http-transport'
import type { KubeClient } from './kube/kube-client'
import { loadDefaultKubeConfig } from './kube/kube-config'
import { createLogger, type Logger } from './observability/logger'
import { createMetricsRegistry } from './observability/metrics'
import { createRuntimeMetrics, type RuntimeMetrics } from './observability/runtime-metrics'
import type { ReconcileDeps } from './reconcile/runtime/controller'
import { realTimers, type Timers } from './timers'

/** Everything a reconcile function process shares. */
export interface RuntimeDeps extends ReconcileDeps {
  registry: Registry
  metrics: RuntimeMetrics
  timers: Timers
  /** Closes the apiserver connections. */
  close(): void
}

/**
 * Deps for `component` (the field manager and logger name, e.g. `machine-api-worker`), using
 * $KUBECONFIG, ~/.kube/config or the in-cluster service account, in that order.
 */
export function createDeps(
  component: string,
  options: { clock?: Clock; log?: Logger } = {},
): RuntimeDeps {
  const kc = loadDefaultKubeConfig()
  const registry = createMetricsRegistry()
  const metrics = createRuntimeMetrics(registry)
  const transport = createHttpTransport(kc, (call) =>
    metrics.kubeRequests.inc({ verb: call.verb, resource: call.resource, code: String(call.code) }),
  )
  const kube: KubeClient = createKubeClient(transport)
  return {
    kube,
    clock: options.clock ?? systemClock,
    log: options.log ?? createLogger({ name: component }),
    fieldManager: component,
    registry,
    metrics,
    timers: realTimers(),
    close: () => kube.close(),
  }
}

/** Settings read from flags and environment, shared by the reconcile entry points. */
export interface RuntimeSettings {
  /** `--controllers` / $CONTROLLERS: comma-separated kinds; all when empty. */
  controllers: string | undefined
  /** $PORT for the HTTP function and the health endpoints (default 8080). */
  port: number
  /** $WATCH_NAMESPACE: limit watches and sweeps to one namespace. */
  namespace: string | undefined
  /** $NATS_URL: the JetStream server, when the JetStream transport is used. */
  natsUrl: string | undefined
  /** $SWEEP_PERIOD_SECONDS for in-process sweeps (default 300; 0 disables). */
  sweepPeriodMs: number
  /** $CONCURRENCY: reconciles at once (default 8). */
  concurrency: number
  /** `--bus` / $BUS: `in-process` or `jetstream` (worker only). */
  bus: 'in-process' | 'jetstream'
  /** `--bridge` / $WATCH_BRIDGE=1: the worker also runs the watch bridge. */
  bridge: boolean
}
