/** The node listener (what the webhook process serves): every route on node:http, without Hono. */
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { silentLogger } from '../../../src/observability/logger'
import { createMetricsRegistry } from '../../../src/observability/metrics'
import { createWebhookListener } from '../../../src/webhooks/listener'
import {
  admissionBody,
  admissionResponse,
  machine,
  post,
  testApp,
  testProviderSchemas,
} from './reviews'

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done))
})

async function serve(limits?: { admissionBytes?: number }): Promise<string> {
  const listener = createWebhookListener({
    logger: silentLogger(),
    metrics: createMetricsRegistry({ defaultMetrics: false }),
    providerSchemas: testProviderSchemas,
    ...(limits ? { limits } : {}),
  })
  const server = createServer(listener)
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function call(url: string, method: string, body?: string) {
  return new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
    const req = request(url, { method, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', text }),
      )
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe('createWebhookListener', () => {
  it('answers reviews exactly as the Hono app does, also with the query the apiserver adds', async () => {
    const url = await serve()
    const bodies: Array<[string, string]> = [
      ['/validate?timeout=10s', JSON.stringify(admissionBody(machine()))],
      ['/mutate', JSON.stringify(admissionBody(machine()))],
      ['/validate', JSON.stringify(admissionBody(machine({ taints: 'x' })))],
      ['/validate', 'not json'],
      ['/convert', JSON.stringify(admissionBody(machine()))],
      [
        '/convert',
        JSON.stringify({
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'ConversionReview',
          request: {
            uid: 'u',
            desiredAPIVersion: 'machine-api.dev/v1alpha1',
            objects: [machine()],
          },
        }),
      ],
    ]
    for (const [path, body] of bodies) {
      const direct = await call(`${url}${path}`, 'POST', body)
      const viaHono = await post(testApp(), path.split('?')[0] ?? path, body)
      expect(direct.type).toBe('application/json')
      expect({ status: direct.status, body: JSON.parse(direct.text) }).toEqual(viaHono)
    }
  })

  it('denies invalid objects with field paths', async () => {
    const url = await serve()
    const answer = await call(
      `${url}/validate`,
      'POST',
      JSON.stringify(admissionBody(machine({ providerSpec: { provider: 'test', value: {} } }))),
    )
    const response = admissionResponse(JSON.parse(answer.text))
    expect(response.allowed).toBe(false)
    expect(response.status?.message).toContain('spec.providerSpec.value.instanceType')
  })

  it('refuses oversized bodies with 400', async () => {
    const url = await serve({ admissionBytes: 1024 })
    const big = admissionBody(machine({ metadata: { labels: { x: 'y'.repeat(4096) } } }))
    const answer = await call(`${url}/validate`, 'POST', JSON.stringify(big))
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.text).error).toBe('body exceeds 1024 bytes')
  })

  it('answers health, readiness and unknown routes as the Hono app does', async () => {
    const url = await serve()
    const app = testApp()
    const requests: Array<[string, string]> = [
      ['GET', '/healthz'],
      ['GET', '/readyz?verbose'],
      ['GET', '/validate'],
      ['POST', '/healthz'],
      ['DELETE', '/nope'],
    ]
    for (const [method, path] of requests) {
      const direct = await call(`${url}${path}`, method)
      const viaHono = await app.request(path, { method })
      expect(direct.type).toBe('application/json')
      expect({ status: direct.status, body: JSON.parse(direct.text) }).toEqual({
        status: viaHono.status,
        body: await viaHono.json(),
      })
    }
    const head = await call(`${url}/healthz`, 'HEAD')
    expect({ status: head.status, text: head.text }).toEqual({ status: 200, text: '' })
  })

  it('serves health, metrics and 404s', async () => {
    const url = await serve()
    await call(`${url}/validate`, 'POST', JSON.stringify(admissionBody(machine())))
    expect((await call(`${url}/readyz`, 'GET')).status).toBe(200)
    expect((await call(`${url}/validate`, 'GET')).status).toBe(404)
    const metrics = (await call(`${url}/metrics`, 'GET')).text
    expect(metrics).toContain(
      'machine_api_webhook_request_duration_seconds_count{endpoint="/validate",status="200"} 1',
    )
    expect(metrics).toContain(
      'machine_api_webhook_admission_total{endpoint="/validate",kind="Machine",allowed="true"} 1',
    )
    // Labelled by route, so arbitrary paths make no new series.
    expect(metrics).toContain(
      'machine_api_webhook_request_duration_seconds_count{endpoint="/readyz",status="200"} 1',
    )
    await call(`${url}/a/b/c`, 'GET')
    expect((await call(`${url}/metrics`, 'GET')).text).toContain(
      'machine_api_webhook_request_duration_seconds_count{endpoint="other",status="404"} 1',
    )
  })
})
