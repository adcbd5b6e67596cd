/** The one health responder every server answers /healthz, /readyz and /metrics with, in its Hono app. */
import { Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { createHttpApp } from '../../../src/http/app'
import { type HealthSources, healthRoutes } from '../../../src/observability/health'
import { servedApp } from '../../harness/served-app'

async function answer(sources: HealthSources, path: string, init?: RequestInit) {
  const response = await servedApp(healthRoutes(createHttpApp(), sources)).request(path, init)
  return [response.status, await response.text()]
}

describe('healthRoutes', () => {
  it('answers /healthz while running and /readyz once every check passes', async () => {
    const sources = { ready: { started: () => true, apiserver: async () => true } }
    expect(await answer(sources, '/healthz')).toEqual([200, '{"status":"ok"}'])
    expect(await answer(sources, '/readyz')).toEqual([200, '{"status":"ok"}'])
  })

  it('names the failing checks, a throwing one included, with 503; /healthz stays 200', async () => {
    const sources = {
      ready: {
        started: () => false,
        bus: () => true,
        apiserver: async () => {
          throw new Error('connection refused')
        },
      },
    }
    expect(await answer(sources, '/readyz?verbose')).toEqual([
      503,
      '{"status":"not ready","failing":["started","apiserver"]}',
    ])
    expect(await answer(sources, '/healthz')).toEqual([200, '{"status":"ok"}'])
  })

  it('serves the Prometheus text format on /metrics when it has metrics, and 404 elsewhere', async () => {
    const registry = new Registry()
    const served = servedApp(healthRoutes(createHttpApp(), { ready: {}, metrics: registry }))
    const metrics = await served.request('/metrics')
    expect(metrics.status).toBe(200)
    expect(metrics.headers.get('content-type')).toBe(registry.contentType)
    expect(await answer({ ready: {} }, '/metrics')).toEqual([
      404,
      '{"error":"no route for GET /metrics"}',
    ])
    expect(await answer({ ready: {} }, '/mutate', { method: 'POST', body: '{}' })).toEqual([
      404,
      '{"error":"no route for POST /mutate"}',
    ])
  })

  it('answers 500 when the metrics cannot be collected, and HEAD without a body', async () => {
    const failing = {
      contentType: 'text/plain',
      metrics: () => Promise.reject(new Error('collector failed')),
    }
    expect(await answer({ ready: {}, metrics: failing }, '/metrics')).toEqual([
      500,
      '{"error":"internal error"}',
    ])
    expect(await answer({ ready: {} }, '/healthz', { method: 'HEAD' })).toEqual([200, ''])
  })
})
