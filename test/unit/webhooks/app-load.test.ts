/** The webhook app at start: health and readiness at once, reviews and metrics once the handlers load. */
import { describe, expect, it } from 'vitest'
import { silentLogger } from '../../../src/observability/logger'
import { createMetricsRegistry } from '../../../src/observability/metrics'
import { createWebhookApp } from '../../../src/webhooks/app'
import { createWebhookHandlers, type WebhookHandlers } from '../../../src/webhooks/review-endpoints'
import { servedApp } from '../../harness/served-app'
import { admissionBody, machine, testProviderSchemas } from './reviews'

function handlers(): WebhookHandlers {
  return createWebhookHandlers({
    logger: silentLogger(),
    metrics: createMetricsRegistry({ defaultMetrics: false }),
    providerSchemas: testProviderSchemas,
  })
}

const review = { method: 'POST', body: JSON.stringify(admissionBody(machine())) }

describe('createWebhookApp', () => {
  it('answers health at once, is not ready until loaded, and loads once for everything else', async () => {
    let loads = 0
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const webhook = createWebhookApp(async () => {
      loads++
      await gate
      return handlers()
    }, silentLogger())
    const app = servedApp(webhook.app)
    expect((await app.request('/healthz')).status).toBe(200)
    expect(loads).toBe(0)
    const notReady = await app.request('/readyz')
    expect([notReady.status, await notReady.text()]).toEqual([
      503,
      '{"status":"not ready","failing":["handlers"]}',
    ])
    const waiting = [app.request('/validate', review), app.request('/metrics')]
    release()
    expect((await Promise.all(waiting)).map((r) => r.status)).toEqual([200, 200])
    expect(await (await app.request('/readyz')).text()).toBe('{"status":"ok"}')
    expect(loads).toBe(1)
  })

  it('stays not ready after a failed load, and the next probe or review retries it', async () => {
    let attempts = 0
    const webhook = createWebhookApp(async () => {
      attempts++
      if (attempts <= 2) throw new Error('chunk missing')
      return handlers()
    }, silentLogger())
    const app = servedApp(webhook.app)
    await expect(webhook.warm()).rejects.toThrow('chunk missing')
    const failed = await app.request('/validate', review)
    expect([failed.status, await failed.text()]).toEqual([500, '{"error":"internal error"}'])
    expect(attempts).toBe(2)
    expect((await app.request('/readyz')).status).toBe(503)
    await webhook.warm()
    expect(attempts).toBe(3)
    expect((await app.request('/readyz')).status).toBe(200)
    expect((await app.request('/validate', review)).status).toBe(200)
  })
})
