/**
 * @module Drives a node:http request listener as production serves it: on a real server on the
 * loopback interface, started on the first request, closed after the test file.
 */
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll } from 'vitest'

const servers: Server[] = []
// Registered while the importing test file is collected, so it runs after that file's tests.
afterAll(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((done) => server.close(done))
  }
})

/** A listener under test: `request` is fetch with a path relative to its server. */
export interface ServedListener {
  request(path: string, init?: RequestInit): Promise<Response>
  /** The server's base URL (`http://127.0.0.1:port`), once listening. */
  url(): Promise<string>
}

/** Serves `listener` on 127.0.0.1 (any free port) once it is first asked for. */
export function servedListener(listener: RequestListener): ServedListener {
  let listening: Promise<string> | undefined
  const url = () => {
    listening ??= new Promise<string>((resolve) => {
      const server = createServer(listener)
      servers.push(server)
      server.listen(0, '127.0.0.1', () =>
        resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
      )
    })
    return listening
  }
  return { url, request: async (path, init) => fetch(`${await url()}${path}`, init) }
}
