import { Registry } from 'prom-client'
import { afterEach, describe, expect, it } from 'vitest'
import { serveHealth } from '../../../src/observability/health-server'

const servers: Array<{ close: () => Promise<void> }> = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

async function serve(ready: Record<string, () => boolean | Promise<boolean>>) {
  const server = await serveHealth({ registry: new Registry(), ready }, 0, '127.0.0.1')
  servers.push(server)
  return (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${server.port}${path}`, init)
}

describe('serveHealth', () => {
  it('answers /healthz while running and /readyz once every check passes', async () => {
    const get = await serve({ started: () => true, apiserver: async () => true })
    const health = await get('/healthz')
    expect([health.status, await health.text()]).toEqual([200, 'ok'])
    const ready = await get('/readyz')
    expect([ready.status, await ready.text()]).toEqual([200, 'ok'])
  })

  it('names the failing checks, a throwing one included, with 503', async () => {
    const get = await serve({
      started: () => false,
      bus: () => true,
      apiserver: async () => {
        throw new Error('connection refused')
      },
    })
    const ready = await get('/readyz?verbose')
    expect([ready.status, await ready.text()]).toEqual([503, 'not ready: started, apiserver'])
  })

  it('serves the Prometheus text format on /metrics and 404 elsewhere', async () => {
    const get = await serve({})
    const metrics = await get('/metrics')
    expect(metrics.status).toBe(200)
    expect(metrics.headers.get('content-type')).toContain('text/plain')
    const missing = await get('/mutate', { method: 'POST', body: '{}' })
    expect(missing.status).toBe(404)
    expect((await get('/nothing')).status).toBe(404)
  })
})
