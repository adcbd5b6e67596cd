/**
 * @module Reads a request body straight from the node request, with a size limit: the webhook and
 * the reconcile function take their bodies this way rather than through Hono's `c.req.text()`, so
 * a body over the limit is refused as it streams in (never buffered whole) and no Web stream is
 * made per request.
 */
import type { IncomingMessage } from 'node:http'

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
