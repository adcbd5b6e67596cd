/**
 * The MachineClass lookup only feeds a warning, so a slow apiserver must not hold the admission
 * review past the webhook timeout. Found by the concurrency chaos scenario: on two loaded cores
 * /validate waited on this GET and the apiserver failed the request ("context deadline exceeded").
 */
import { createServer, type Server } from 'node:http'
import { KubeConfig } from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { machineClassLookup } from '../../../src/webhooks/machine-class-lookup'

let server: Server
let port = 0

function kubeConfigFor(url: string): KubeConfig {
  const kc = new KubeConfig()
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: url, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  })
  return kc
}

beforeAll(async () => {
  // /hang never answers; /missing answers 404 at once.
  server = createServer((req, res) => {
    if (req.url?.includes('/missing')) {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ kind: 'Status', code: 404, reason: 'NotFound' }))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  port = typeof address === 'object' && address ? address.port : 0
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('machineClassLookup', () => {
  it('gives up after its timeout when the apiserver does not answer', async () => {
    const exists = machineClassLookup(kubeConfigFor(`http://127.0.0.1:${port}`), {
      timeoutMs: 200,
    })
    // Without the timeout this waits forever and the test times out.
    expect(await exists('default', 'hang')).toBeUndefined()
  })

  it('still reports a missing class', async () => {
    const exists = machineClassLookup(kubeConfigFor(`http://127.0.0.1:${port}`))
    expect(await exists('default', 'missing')).toBe(false)
  })
})
