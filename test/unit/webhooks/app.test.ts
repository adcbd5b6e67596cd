/** The app's HTTP surface: 400 for anything that is not a review we serve, health and metrics. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { admissionBody, machine, post, testApp } from './reviews'

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
    expect(answer.status).toBe(400)
    expect(answer.body.error).toContain('exceeds')
  })
})

describe('operational endpoints', () => {
  it('answers /healthz and /readyz', async () => {
    const app = testApp()
    expect((await app.request('/healthz')).status).toBe(200)
    expect((await app.request('/readyz')).status).toBe(200)
  })

  it('exposes request metrics', async () => {
    const app = testApp()
    await post(app, '/validate', admissionBody(machine()))
    const text = await (await app.request('/metrics')).text()
    expect(text).toContain('machine_api_webhook_request_duration_seconds_bucket')
    expect(text).toContain(
      'machine_api_webhook_admission_total{endpoint="/validate",kind="Machine",allowed="true"} 1',
    )
  })
})

describe('a review as the apiserver sends it', () => {
  it('is answered with the same uid (fixture also used for latency measurements)', async () => {
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
})
