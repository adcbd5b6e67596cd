/**
 * @module The reconcile runtime's Prometheus metrics, registered on the registry passed in (one per
 * process, created by the entry point): reconcile durations and errors, queue depth, requeues,
 * apiserver calls and watch restarts.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client'

/** The metric handles the runtime records into. */
export interface RuntimeMetrics {
  /** Seconds per reconcile, by kind and result (`success`, `requeue`, `error`, `permanent`...). */
  reconcileDuration: Histogram<'kind' | 'result'>
  /** Failed reconciles by kind and classified reason. */
  reconcileErrors: Counter<'kind' | 'reason'>
  /**
   * Requeues by kind and cause: `requested` (a timer), `error` (backoff), `own-write` (a wake by
   * the last run's own write, held until its timer).
   */
  requeues: Counter<'kind' | 'cause'>
  /** Keys waiting (ready or delayed) in an in-process queue. */
  queueDepth: Gauge<'queue'>
  /** Apiserver calls by verb, resource and HTTP code (0 = no answer). */
  kubeRequests: Counter<'verb' | 'resource' | 'code'>
  /** Watch restarts by resource and cause (`closed`, `gone`, `watchdog`, `error`). */
  watchRestarts: Counter<'resource' | 'cause'>
  /** Change hints received, by transport. */
  hints: Counter<'transport'>
}

/** Creates and registers the runtime metrics on `registry`. */
export function createRuntimeMetrics(registry: Registry): RuntimeMetrics {
  const registers = [registry]
  return {
    reconcileDuration: new Histogram({
      name: 'machine_api_reconcile_duration_seconds',
      help: 'Duration of one reconcile, by kind and result.',
      labelNames: ['kind', 'result'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    reconcileErrors: new Counter({
      name: 'machine_api_reconcile_errors_total',
      help: 'Reconciles that failed, by kind and classified reason.',
      labelNames: ['kind', 'reason'],
      registers,
    }),
    requeues: new Counter({
      name: 'machine_api_requeues_total',
      help: 'Keys scheduled to run again, by kind and cause.',
      labelNames: ['kind', 'cause'],
      registers,
    }),
    queueDepth: new Gauge({
      name: 'machine_api_queue_depth',
      help: 'Keys waiting in an in-process queue (ready plus delayed).',
      labelNames: ['queue'],
      registers,
    }),
    kubeRequests: new Counter({
      name: 'machine_api_kube_requests_total',
      help: 'Calls to the apiserver, by verb, resource and HTTP status code (0: no answer).',
      labelNames: ['verb', 'resource', 'code'],
      registers,
    }),
    watchRestarts: new Counter({
      name: 'machine_api_watch_restarts_total',
      help: 'Watch streams restarted, by resource and cause.',
      labelNames: ['resource', 'cause'],
      registers,
    }),
    hints: new Counter({
      name: 'machine_api_change_hints_total',
      help: 'Change hints received, by transport.',
      labelNames: ['transport'],
      registers,
    }),
  }
}
