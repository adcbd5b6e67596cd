/**
 * @module Drives a Hono app as production serves it: through @hono/node-server on a real server on
 * the loopback interface (so handlers that read the node request see one), started on the first
 * request, closed after the test file.
 */

import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { afterAll } from 'vitest'
import type { HttpApp } from '../../src/http/app'

const servers: Server[] = []
// Registered while the importing test file is collected, so it runs after that file's tests.
afterAll(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((done) => server.close(done))
  }
})

/** An app under test: `request` is fetch with a path relative to its server. */
export interface ServedApp {
  request(path: string, init?: RequestInit): Promise<Response>
  /** The server's base URL (`http://127.0.0.1:port`), once listening. */
  url(): Promise<string>
}

/** Serves `app` on 127.0.0.1 (any free port) once it is first asked for. */
export function servedApp(app: HttpApp): ServedApp {
  let listening: Promise<string> | undefined
  const url = () => {
    listening ??= new Promise<string>((resolve) => {
      const server = createAdaptorServer({ fetch: app.fetch }) as Server
      servers.push(server)
      server.listen(0, '127.0.0.1', () =>
        resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
      )
    })
    return listening
  }
  return { url, request: async (path, init) => fetch(`${await url()}${path}`, init) }
}
