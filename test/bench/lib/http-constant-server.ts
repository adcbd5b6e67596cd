/**
 * @module The limit of the webhook benchmark: the same HTTPS stack as the webhook
 * (startWebhookServer: node:https + @hono/node-server + Hono) answering every POST with a fixed
 * JSON body, so the difference to the real webhook is what the handlers cost. Run as a child
 * process (`node --import tsx`) with the webhook's variables: WEBHOOK_HOST, WEBHOOK_PORT,
 * WEBHOOK_CERT_FILE, WEBHOOK_KEY_FILE.
 */
import { Hono } from 'hono'
import { silentLogger } from '../../../src/observability/logger'
import { startWebhookServer } from '../../../src/webhooks/server'

const fixed = {
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  response: { uid: '0b5e9e5e-1111-4a7e-9c1e-000000000001', allowed: true },
}

const app = new Hono()
app.get('/readyz', (c) => c.json({ status: 'ok' }))
// Reads the body like the webhook does (the request is consumed), then answers the same bytes.
app.post('*', async (c) => {
  await c.req.raw.text()
  return c.json(fixed)
})

const env = process.env
const server = await startWebhookServer(app, {
  host: env.WEBHOOK_HOST ?? '127.0.0.1',
  port: Number(env.WEBHOOK_PORT ?? 0),
  certFile: env.WEBHOOK_CERT_FILE ?? 'tls.crt',
  keyFile: env.WEBHOOK_KEY_FILE ?? 'tls.key',
  logger: silentLogger(),
})
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0))
})
