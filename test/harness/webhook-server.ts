/**
 * @module Runs the real webhook server (src/webhooks) in-process over TLS on 127.0.0.1, with a
 * throwaway CA made by the openssl CLI, so the test apiserver can call it.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { KubeConfig } from '@kubernetes/client-node'
import { z } from 'zod'
import type { ProviderSpecSchemas } from '../../src/api/shared/provider-spec'
import { type Logger, silentLogger } from '../../src/observability/logger'
import { createMetricsRegistry } from '../../src/observability/metrics'
import { createWebhookApp } from '../../src/webhooks/app'
import { machineClassLookup } from '../../src/webhooks/machine-class-lookup'
import { createWebhookHandlers } from '../../src/webhooks/review-endpoints'
import { type RunningWebhookServer, startWebhookServer } from '../../src/webhooks/server'

/** A webhook server the apiserver can reach. */
export interface TestWebhookServer {
  /** https://127.0.0.1:PORT (no trailing slash). */
  url: string
  /** Base64 of the CA certificate PEM, for `caBundle` fields. */
  caBundle: string
  /** Directory with ca.crt, tls.crt and tls.key. */
  certDir: string
  server: RunningWebhookServer
  stop(): Promise<void>
}

/** Provider `test` with a strict schema: enough to prove provider-spec validation end to end. */
export const testProviderSchemas: ProviderSpecSchemas = (provider) =>
  provider === 'test'
    ? z.object({ instanceType: z.string().min(1), ami: z.string().optional() }).strict()
    : undefined

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] })
}

/** Writes a CA and a serving certificate for `ip` into `dir` (P-256 keys: fast to make). */
export function generateCertificates(dir: string, ip = '127.0.0.1'): void {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  openssl(
    [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '2',
      '-subj',
      '/CN=machine-api-test-ca',
    ],
    dir,
  )
  openssl(['req', ...ec, '-keyout', 'tls.key', '-out', 'tls.csr', '-subj', `/CN=${ip}`], dir)
  writeFileSync(join(dir, 'ext.cnf'), `subjectAltName=IP:${ip}\nextendedKeyUsage=serverAuth\n`)
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'tls.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'tls.crt',
      '-days',
      '2',
      '-extfile',
      'ext.cnf',
    ],
    dir,
  )
}

/**
 * Starts the webhook server on a free 127.0.0.1 port. With `kubeConfig`, /validate looks
 * MachineClasses up in that apiserver (for the missing-class warning).
 */
export async function startTestWebhookServer(
  options: { providerSchemas?: ProviderSpecSchemas; kubeConfig?: KubeConfig; logger?: Logger } = {},
): Promise<TestWebhookServer> {
  const certDir = mkdtempSync(join(tmpdir(), 'machine-api-webhook-'))
  generateCertificates(certDir)
  const logger = options.logger ?? silentLogger()
  const handlers = createWebhookHandlers({
    logger,
    metrics: createMetricsRegistry({ defaultMetrics: false }),
    providerSchemas: options.providerSchemas ?? testProviderSchemas,
    ...(options.kubeConfig ? { machineClassExists: machineClassLookup(options.kubeConfig) } : {}),
  })
  const { app } = createWebhookApp(async () => handlers, logger)
  const server = await startWebhookServer(app, {
    host: '127.0.0.1',
    port: 0,
    certFile: join(certDir, 'tls.crt'),
    keyFile: join(certDir, 'tls.key'),
    logger,
    tlsReloadIntervalMs: 200,
  })
  return {
    url: server.url,
    caBundle: readFileSync(join(certDir, 'ca.crt')).toString('base64'),
    certDir,
    server,
    stop: async () => {
      await server.close()
      rmSync(certDir, { recursive: true, force: true })
    },
  }
}
