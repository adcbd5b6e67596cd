/**
 * @module Plain node:http plumbing shared by every server of the project (the webhook, the worker's
 * health port, the reconcile function): read a request body, answer JSON, route by path, listen.
 * No HTTP framework and no Web Request, stream or Response per call: the hot paths read and write
 * the node objects directly, and a process loads no undici at start (docs/architecture.md).
 */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from 'node:http'

/** The path of `request` without its query (the apiserver calls e.g. /validate?timeout=10s). */
export function requestPath(request: IncomingMessage): string {
  const url = request.url ?? '/'
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
}

/**
 * The whole body as UTF-8 text, or undefined once it passes `limit` bytes (announced or sent);
 * the rest is then left to node, which discards it.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  const announced = Number(request.headers['content-length'])
  if (announced > limit) return Promise.resolve(undefined)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        request.off('data', onData)
        request.resume()
        resolve(undefined)
        return
      }
      chunks.push(chunk)
    }
    request.on('data', onData)
    request.once('error', reject)
    request.once('end', () => {
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)
      resolve(body === undefined ? '' : body.toString('utf8'))
    })
  })
}

/** Answers `status` with the JSON `body` in one write (length known up front, no chunking). */
export function sendJson(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, [
    'Content-Type',
    'application/json',
    'Content-Length',
    String(Buffer.byteLength(body)),
  ])
  response.end(body)
}

/** A plain HTTP server that is listening. */
export interface ListeningServer {
  port: number
  /** Stops accepting and closes idle connections; resolves once the requests in flight are answered. */
  close(): Promise<void>
}

/** Serves `listener` over plain HTTP on `port` (0 = any free port); resolves once listening. */
export async function listen(
  listener: RequestListener,
  port: number,
  hostname = '0.0.0.0',
): Promise<ListeningServer> {
  const server = createServer(listener)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, hostname, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  return {
    port: typeof address === 'object' && address !== null ? address.port : port,
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}
