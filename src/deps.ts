/**
 * @module Builds the process-wide dependencies of the reconcile functions (kube client, clock,
 * logger, metrics) from the environment. Only the wiring layer (`functions/`, `src/cli/`) calls it;
 * everything else receives deps.
 */
import { KubeConfig } from '@kubernetes/client-node'
import type { Registry } from 'prom-client'
import { realTimers, type Timers } from './bus/timers'
import { type Clock, systemClock } from './clock'
import { createKubeClient } from './kube/dynamic-client'
import { createHttpTransport } from './kube/http-transport'
import type { KubeClient } from './kube/kube-client'
import { createLogger, type Logger } from './observability/logger'
import { createMetricsRegistry } from './observability/metrics'
import { createRuntimeMetrics, type RuntimeMetrics } from './observability/runtime-metrics'
import type { ReconcileDeps } from './reconcile/runtime/controller'

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
  const kc = new KubeConfig()
  kc.loadFromDefault()
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

function flag(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3)
    if (arg === `--${name}`) {
      const next = argv[i + 1]
      return next === undefined || next.startsWith('--') ? 'true' : next
    }
  }
  return undefined
}

function positiveInt(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined || text === '') return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a whole number, got ${text}`)
  return value
}

/** Reads the settings; throws with a message naming the bad setting. */
export function readSettings(argv: readonly string[], env: NodeJS.ProcessEnv): RuntimeSettings {
  const bus = flag(argv, 'bus') ?? env.BUS ?? 'in-process'
  if (bus !== 'in-process' && bus !== 'jetstream')
    throw new Error(`--bus must be in-process or jetstream, got ${bus}`)
  const bridge = flag(argv, 'bridge') ?? env.WATCH_BRIDGE
  return {
    controllers: flag(argv, 'controllers') ?? env.CONTROLLERS,
    port: positiveInt(env.PORT, 8080, 'PORT'),
    namespace: env.WATCH_NAMESPACE || undefined,
    natsUrl: env.NATS_URL || undefined,
    sweepPeriodMs: positiveInt(env.SWEEP_PERIOD_SECONDS, 300, 'SWEEP_PERIOD_SECONDS') * 1000,
    concurrency: Math.max(1, positiveInt(env.CONCURRENCY, 8, 'CONCURRENCY')),
    bus,
    bridge: bridge === 'true' || bridge === '1',
  }
}
