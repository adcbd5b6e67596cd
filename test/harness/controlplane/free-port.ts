/** @module Asks the kernel for unused loopback ports. */
import { createServer } from 'node:net'

/**
 * Returns a port that was free on 127.0.0.1 a moment ago. Another process can still take it before
 * the caller binds it, so callers retry their start when a bind fails.
 */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      if (address === null || typeof address === 'string') {
        server.close()
        reject(new Error('no port assigned'))
        return
      }
      server.close(() => resolve(address.port))
    })
  })
}
