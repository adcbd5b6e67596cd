/**
 * @module `/healthz`, `/readyz` and `/metrics` on their own port, for a worker that serves no
 * other HTTP. A plain node:http listener, not a Hono app: the worker then loads no HTTP framework
 * at start (Hono, @hono/node-server and the undici globals it touches cost about 20 ms of CPU and
 * 8 MB of RSS). Answers as `addHealthRoutes` in health.ts does.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Registry } from 'prom-client'
import { failingChecks, type ReadinessChecks } from './readiness'

interface Answer {
  status: number
  contentType: string
  body: string
}

const text = (status: number, body: string): Answer => ({
  status,
  contentType: 'text/plain; charset=UTF-8',
  body,
})

async function answer(
  path: string,
  options: { registry: Registry; ready: ReadinessChecks },
): Promise<Answer> {
  switch (path) {
    case '/healthz':
      return text(200, 'ok')
    case '/readyz': {
      const failing = await failingChecks(options.ready)
      return failing.length === 0 ? text(200, 'ok') : text(503, `not ready: ${failing.join(', ')}`)
    }
    case '/metrics':
      return {
        status: 200,
        contentType: options.registry.contentType,
        body: await options.registry.metrics(),
      }
    default:
      return text(404, '404 Not Found')
  }
}

function respond(request: IncomingMessage, response: ServerResponse, reply: Answer): void {
  response.writeHead(reply.status, {
    'Content-Type': reply.contentType,
    'Content-Length': Buffer.byteLength(reply.body),
  })
  response.end(request.method === 'HEAD' ? undefined : reply.body)
}

/** Serves the health routes on `port` (0 = any free port); resolves with the bound port and a close function. */
export async function serveHealth(
  options: { registry: Registry; ready: ReadinessChecks },
  port: number,
  hostname = '0.0.0.0',
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/'
    const routed = request.method === 'GET' || request.method === 'HEAD'
    const replied = routed ? answer(path, options) : Promise.resolve(text(404, '404 Not Found'))
    replied.then(
      (reply) => respond(request, response, reply),
      () => respond(request, response, text(500, 'Internal Server Error')),
    )
  })
  return await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, hostname, () => {
      server.off('error', reject)
      const address = server.address()
      resolve({
        port: typeof address === 'object' && address !== null ? address.port : port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      })
    })
  })
}
