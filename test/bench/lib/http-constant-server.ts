/**
 * @module The limit of the webhook benchmark: the same HTTPS stack as the webhook
 * (startWebhookServer: node:https, the listener's review routes read the body with readBody and
 * answer with sendJson; the shared health responder for the rest) answering every review POST
 * with a fixed JSON body, so the difference to the real webhook is what the handlers cost. Run as a child process
 * (`node --import tsx`) with the webhook's variables: WEBHOOK_HOST, WEBHOOK_PORT,
 * WEBHOOK_CERT_FILE, WEBHOOK_KEY_FILE; and optionally FIXED_ANSWERS_FILE, a JSON map from request
 * URL to answer text (e.g. the webhook's own answer to a 50-Machine /convert, so the limit sends
 * as many bytes back as the webhook does).
 */
import { readFileSync } from 'node:fs'
import { readBody, sendJson } from '../../../src/http-server'
import { healthListener } from '../../../src/observability/health'
import { silentLogger } from '../../../src/observability/logger'
import { withReviewRoutes } from '../../../src/webhooks/listener'
import { startWebhookServer } from '../../../src/webhooks/server'

const fixed = {
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  response: { uid: '0b5e9e5e-1111-4a7e-9c1e-000000000001', allowed: true },
}

const answers: Record<string, string> = process.env.FIXED_ANSWERS_FILE
  ? JSON.parse(readFileSync(process.env.FIXED_ANSWERS_FILE, 'utf8'))
  : {}

// Reads the body like the webhook does (the request is consumed), then answers the same bytes.
const listener = withReviewRoutes(
  healthListener({ ready: {} }),
  async (_path, request, response) => {
    await readBody(request, 64 * 1024 * 1024)
    sendJson(response, 200, answers[request.url ?? ''] ?? JSON.stringify(fixed))
  },
)

const env = process.env
const server = await startWebhookServer(listener, {
  host: env.WEBHOOK_HOST ?? '127.0.0.1',
  port: Number(env.WEBHOOK_PORT ?? 0),
  certFile: env.WEBHOOK_CERT_FILE ?? 'tls.crt',
  keyFile: env.WEBHOOK_KEY_FILE ?? 'tls.key',
  logger: silentLogger(),
})
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0))
})
