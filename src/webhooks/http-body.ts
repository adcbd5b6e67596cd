/**
 * @module Reading a request body and writing a JSON answer on node:http objects directly: no Web
 * Request, stream or Response per call (what the webhook's hot path would otherwise spend its
 * time building).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

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
