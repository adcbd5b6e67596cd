/** @module Webhook metrics: request latency per endpoint and admission outcomes per kind. */
import { Counter, Histogram, type Registry } from 'prom-client'

/** The webhook's metrics, registered on a registry the caller owns. */
export interface WebhookMetrics {
  observeRequest(endpoint: string, status: number, seconds: number): void
  countAdmission(endpoint: string, kind: string, allowed: boolean): void
}

/** Registers the webhook metrics on `registry` (once per registry). */
export function createWebhookMetrics(registry: Registry): WebhookMetrics {
  const duration = new Histogram({
    name: 'machine_api_webhook_request_duration_seconds',
    help: 'Time to answer a webhook request, by endpoint and HTTP status.',
    labelNames: ['endpoint', 'status'],
    // The apiserver's webhook timeout is seconds; what matters is the low millisecond range.
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  })
  const admissions = new Counter({
    name: 'machine_api_webhook_admission_total',
    help: 'Admission decisions, by endpoint, kind and outcome.',
    labelNames: ['endpoint', 'kind', 'allowed'],
    registers: [registry],
  })
  return {
    observeRequest: (endpoint, status, seconds) =>
      duration.observe({ endpoint, status: String(status) }, seconds),
    countAdmission: (endpoint, kind, allowed) =>
      admissions.inc({ endpoint, kind, allowed: String(allowed) }),
  }
}
