/**
 * @module Serves an app over plain HTTP through @hono/node-server (the worker's health port, the
 * reconcile function, the EC2 notice source); the webhook's HTTPS server is webhooks/server.ts.
 */

import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import type { HttpApp } from './app'

/** A plain HTTP server that is listening. */
export interface ListeningServer {
  port: number
  /** Stops accepting and closes idle connections; resolves once the requests in flight are answered. */
  close(): Promise<void>
}

/** Serves `app` on `port` (0 = any free port); resolves once listening. */
export async function listen(
  app: HttpApp,
  port: number,
  hostname = '0.0.0.0',
): Promise<ListeningServer> {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, hostname, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}
