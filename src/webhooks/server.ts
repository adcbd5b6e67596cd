/**
 * @module Serves the webhook's Hono app over HTTPS (@hono/node-server's adaptor server on
 * node:https) with hot-reloaded TLS material.
 */

import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import type { HttpApp } from '../http/app'
import type { Logger } from '../observability/logger'
import { readTlsMaterial, type TlsFiles, watchTlsFiles } from './tls'

/** Where and how to serve. */
export interface WebhookServerOptions extends TlsFiles {
  host: string
  /** 0 picks a free port (tests). */
  port: number
  logger: Logger
  /** How often to check the TLS files for changes. */
  tlsReloadIntervalMs?: number
}

/** A running webhook server. */
export interface RunningWebhookServer {
  port: number
  url: string
  /** Re-reads the TLS files now (the watcher does this on change). */
  reloadTls(): Promise<boolean>
  close(): Promise<void>
}

/** Starts serving `app` (the webhook's is in app.ts) over HTTPS; resolves once listening. */
export async function startWebhookServer(
  app: HttpApp,
  options: WebhookServerOptions,
): Promise<RunningWebhookServer> {
  const material = await readTlsMaterial(options)
  const server = createAdaptorServer({
    fetch: app.fetch,
    createServer,
    serverOptions: { ...material, minVersion: 'TLSv1.2' },
  }) as Server
  // The apiserver reuses its connections to webhooks; keeping idle sockets open for a minute saves
  // a TLS handshake on most admissions.
  server.keepAliveTimeout = 60_000
  // A review arrives whole within the apiserver's own webhook timeout (at most 30 s); a sender that
  // trickles its body for longer would hold its share of the review budget for nothing.
  server.requestTimeout = 30_000
  const watch = watchTlsFiles(
    options,
    (next) => server.setSecureContext({ ...next, minVersion: 'TLSv1.2' }),
    {
      logger: options.logger,
      ...(options.tlsReloadIntervalMs === undefined
        ? {}
        : { intervalMs: options.tlsReloadIntervalMs }),
    },
  )
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  options.logger.info({ host: options.host, port }, 'webhook server listening')
  return {
    port,
    url: `https://${host}:${port}`,
    reloadTls: watch.reload,
    close: async () => {
      watch.stop()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
