/** @module Entry point of the webhook function: env -> deps -> HTTPS server for /mutate /validate /convert. */
import { KubeConfig } from '@kubernetes/client-node'
import { createLogger } from '../src/observability/logger'
import { createMetricsRegistry } from '../src/observability/metrics'
import { builtInProviderSpecSchemas } from '../src/providers/schemas'
import { createWebhookApp } from '../src/webhooks/app'
import { machineClassLookup } from '../src/webhooks/machine-class-lookup'
import { startWebhookServer } from '../src/webhooks/server'

const env = process.env
const logger = createLogger({ name: 'machine-api-webhook' })

// The class lookup only feeds a warning: without a usable kubeconfig the webhook still serves.
function classLookup() {
  try {
    const kubeConfig = new KubeConfig()
    kubeConfig.loadFromDefault()
    return { machineClassExists: machineClassLookup(kubeConfig) }
  } catch (error) {
    logger.warn({ err: error }, 'no kubeconfig; MachineClass existence warnings are off')
    return {}
  }
}

const app = createWebhookApp({
  logger,
  metrics: createMetricsRegistry(),
  providerSchemas: builtInProviderSpecSchemas,
  ...classLookup(),
})
const server = await startWebhookServer(app, {
  host: env.WEBHOOK_HOST ?? '0.0.0.0',
  port: Number(env.WEBHOOK_PORT ?? 9443),
  certFile: env.WEBHOOK_CERT_FILE ?? '/tls/tls.crt',
  keyFile: env.WEBHOOK_KEY_FILE ?? '/tls/tls.key',
  logger,
})
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)))
}
