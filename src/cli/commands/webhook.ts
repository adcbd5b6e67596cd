/** @module `machine-api webhook`: the admission and conversion webhook server over HTTPS. */
import { z } from 'zod'
import { createLogger, type Logger } from '../../observability/logger'
import type { MachineClassExists } from '../../webhooks/admission/validate'
import { createWebhookApp } from '../../webhooks/app'
import { startWebhookServer } from '../../webhooks/server'
import type { CliCommand } from '../command'
import { parseConfig, sourced } from '../config'
import { stopOnSignals } from '../signals'

const webhookSchema = z.object({
  host: z.string().min(1).default('0.0.0.0'),
  port: z
    .string()
    .regex(/^[0-9]+$/, 'must be a whole number')
    .default('9443')
    .transform(Number)
    .pipe(z.number().min(1).max(65535)),
  certFile: z.string().min(1).default('/tls/tls.crt'),
  keyFile: z.string().min(1).default('/tls/tls.key'),
})

// The class lookup only feeds a warning: without a usable kubeconfig the webhook still serves.
async function loadClassLookup(logger: Logger): Promise<MachineClassExists | undefined> {
  try {
    const [{ loadDefaultKubeConfig }, { machineClassLookup }] = await Promise.all([
      import('../../kube/kube-config'),
      import('../../webhooks/machine-class-lookup'),
    ])
    return machineClassLookup(loadDefaultKubeConfig())
  } catch (error) {
    logger.warn({ err: error }, 'no kubeconfig; MachineClass existence warnings are off')
    return undefined
  }
}

// The lookup needs @kubernetes/client-node's KubeConfig (about 1 MB of code with what it imports,
// more than the handlers), so readiness does not wait for it and it starts loading only once the
// handlers have: loaded side by side, its compiling shared the one thread with theirs and held
// /readyz back by about as long. A review that names a MachineClass before it has loaded waits
// for it (the lookup is an apiserver GET with its own deadline anyway).
function classLookup(logger: Logger): MachineClassExists {
  const loading = loadClassLookup(logger)
  return async (namespace, name) => (await loading)?.(namespace, name)
}

// Everything the review endpoints need, imported only once the server listens (see webhooks/app.ts).
async function loadHandlers(logger: Logger) {
  const [{ createWebhookHandlers }, { createMetricsRegistry }, { builtInProviderSpecSchemas }] =
    await Promise.all([
      import('../../webhooks/review-endpoints'),
      import('../../observability/metrics'),
      import('../../providers/schemas'),
    ])
  const machineClassExists = classLookup(logger)
  return createWebhookHandlers({
    logger,
    metrics: createMetricsRegistry(),
    providerSchemas: builtInProviderSpecSchemas,
    machineClassExists,
  })
}

/** `webhook`: the same process as `functions/webhook.ts`. */
export const webhookCommand: CliCommand = {
  name: 'webhook',
  summary: 'serve the admission and conversion webhooks over HTTPS',
  description:
    'Serves /mutate, /validate and /convert for the machine-api.dev kinds, reloading the TLS certificate and key when their files change. Stops on SIGTERM/SIGINT.',
  flags: {
    host: { type: 'string', value: 'HOST', description: 'listen address ($WEBHOOK_HOST, 0.0.0.0)' },
    port: { type: 'string', value: 'PORT', description: 'listen port ($WEBHOOK_PORT, 9443)' },
    'cert-file': {
      type: 'string',
      value: 'FILE',
      description: 'TLS certificate ($WEBHOOK_CERT_FILE, /tls/tls.crt)',
    },
    'key-file': {
      type: 'string',
      value: 'FILE',
      description: 'TLS private key ($WEBHOOK_KEY_FILE, /tls/tls.key)',
    },
  },
  env: {
    KUBECONFIG: 'used to warn about missing MachineClasses (optional)',
    LOG_LEVEL: 'pino log level (default info)',
  },
  async run(values, io) {
    const settings = parseConfig(webhookSchema, {
      host: sourced(values, io.env, { flag: 'host', env: 'WEBHOOK_HOST' }),
      port: sourced(values, io.env, { flag: 'port', env: 'WEBHOOK_PORT' }),
      certFile: sourced(values, io.env, { flag: 'cert-file', env: 'WEBHOOK_CERT_FILE' }),
      keyFile: sourced(values, io.env, { flag: 'key-file', env: 'WEBHOOK_KEY_FILE' }),
    })
    const logger = createLogger({ name: 'machine-api-webhook' })
    const webhook = createWebhookApp(() => loadHandlers(logger), logger)
    const server = await startWebhookServer(webhook.app, { ...settings, logger })
    // Listening at once for /healthz; /readyz turns 200 when the handlers have loaded (right away),
    // and a review arriving before that waits for them. A failed load is logged and retried by the
    // next request or readiness probe.
    webhook
      .warm()
      .catch((error: unknown) => logger.error({ err: error }, 'webhook handlers failed to load'))
    stopOnSignals(() => server.close())
    return 'running'
  },
}
