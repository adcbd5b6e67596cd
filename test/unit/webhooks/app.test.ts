/** The webhook's Hono app, as the webhook process serves it: reviews, 400s, health, metrics, 404s. */
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { admissionBody, admissionResponse, machine, post, testApp } from './reviews'

describe('bad requests get HTTP 400 with a JSON error', () => {
  it.each([
    ['/validate', 'not json'],
    ['/validate', '[]'],
    [
      '/mutate',
      JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'ConversionReview', request: {} }),
    ],
    [
      '/mutate',
      JSON.stringify({ ...admissionBody(machine()), apiVersion: 'admission.k8s.io/v1beta1' }),
    ],
    ['/validate', JSON.stringify(admissionBody(machine(), { kind: 'Pod' }))],
    ['/convert', JSON.stringify(admissionBody(machine()))],
    [
      '/convert',
      '{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"x"}}',
    ],
  ])('%s %s', async (path, body) => {
    const answer = await post(testApp(), path, body)
    expect(answer.status).toBe(400)
    expect(answer.body.error).toEqual(expect.any(String))
  })

  it('refuses oversized bodies', async () => {
    const app = testApp({ limits: { admissionBytes: 1024 } })
    const big = admissionBody(machine({ metadata: { labels: { x: 'y'.repeat(4096) } } }))
    const answer = await post(app, '/validate', big)
    expect(answer).toEqual({ status: 413, body: { error: 'body exceeds 1024 bytes' } })
  })
})

/** Sends `head` (a request line and headers) as is; resolves with the status line of the answer. */
async function rawStatus(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(`${head}\r\n\r\n`))
    let text = ''
    socket.on('data', (chunk) => {
      text += chunk
    })
    socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''))
    socket.on('error', reject)
  })
}

describe('malformed requests get 4xx from the HTTP layer, never 5xx', () => {
  it.each([
    ['no Host header', 'POST /validate HTTP/1.1\r\nContent-Length: 0'],
    ['a Host that is no host', 'POST /validate HTTP/1.1\r\nHost: a b\r\nContent-Length: 0'],
    ['a port out of range', 'POST /mutate HTTP/1.1\r\nHost: x:99999999\r\nContent-Length: 0'],
    ['an unknown method', 'FOO /validate HTTP/1.1\r\nHost: x'],
    ['an asterisk target', 'OPTIONS * HTTP/1.1\r\nHost: x'],
  ])('%s', async (_situation, head) => {
    const app = testApp()
    const status = await rawStatus(await app.url(), `${head}\r\nConnection: close`)
    expect(status).toMatch(/^HTTP\/1\.1 4\d\d /)
  })
})

describe('reviews', () => {
  it('are answered with the same uid (fixture also used for latency measurements)', async () => {
    const body = JSON.parse(
      readFileSync(
        join(import.meta.dirname, '../../fixtures/api/machine-admission-review.json'),
        'utf8',
      ),
    ) as { request: { uid: string } }
    const answer = await post(testApp(), '/validate', body)
    expect(answer.status).toBe(200)
    expect(answer.body.response).toMatchObject({ uid: body.request.uid, allowed: true })
  })

  it('are answered alike with the query the apiserver adds', async () => {
    const app = testApp()
    const review = admissionBody(machine({ taints: 'x' }))
    const plain = await post(app, '/validate', review)
    const withQuery = await post(app, '/validate?timeout=10s', review)
    expect(admissionResponse(withQuery.body).allowed).toBe(false)
    expect(withQuery).toEqual(plain)
  })

  it('deny invalid objects with field paths', async () => {
    const answer = await post(
      testApp(),
      '/validate',
      admissionBody(machine({ providerSpec: { provider: 'test', value: {} } })),
    )
    const response = admissionResponse(answer.body)
    expect(response.allowed).toBe(false)
    expect(response.status?.message).toContain('spec.providerSpec.value.instanceType')
  })
})

describe('operational endpoints', () => {
  it('answers health and readiness in the shared format, and 404 for anything else', async () => {
    const app = testApp()
    const answers = []
    for (const [method, path] of [
      ['GET', '/healthz'],
      ['GET', '/readyz?verbose'],
      ['GET', '/validate'],
      ['POST', '/healthz'],
      ['DELETE', '/nope'],
    ] as const) {
      const response = await app.request(path, { method })
      expect(response.headers.get('content-type')).toBe('application/json')
      answers.push([response.status, await response.json()])
    }
    expect(answers).toEqual([
      [200, { status: 'ok' }],
      [200, { status: 'ok' }],
      [404, { error: 'no route for GET /validate' }],
      [404, { error: 'no route for POST /healthz' }],
      [404, { error: 'no route for DELETE /nope' }],
    ])
    const head = await app.request('/healthz', { method: 'HEAD' })
    expect([head.status, await head.text()]).toEqual([200, ''])
  })

  it('counts every answer by route in the metrics, arbitrary paths as one series', async () => {
    const app = testApp()
    await post(app, '/validate', admissionBody(machine()))
    await app.request('/readyz')
    await app.request('/a/b/c')
    const metrics = await (await app.request('/metrics')).text()
    expect(metrics).toContain(
      'machine_api_webhook_request_duration_seconds_count{endpoint="/validate",status="200"} 1',
    )
    expect(metrics).toContain(
      'machine_api_webhook_admission_total{endpoint="/validate",kind="Machine",allowed="true"} 1',
    )
    expect(metrics).toContain(
      'machine_api_webhook_request_duration_seconds_count{endpoint="/readyz",status="200"} 1',
    )
    expect(metrics).toContain(
      'machine_api_webhook_request_duration_seconds_count{endpoint="other",status="404"} 1',
    )
  })
})
