/**
 * @module The limit of the webhook benchmark: an HTTPS server answering every review POST with a
 * fixed JSON body after reading the request's body, so the difference to the real webhook is what
 * the webhook costs above the bare transport. Two stacks, by FIXED_ANSWER_STACK:
 * - `bare` (default): a plain node:https request listener with the webhook server's TLS and
 *   keep-alive settings, reading and writing the node objects directly. This is the limit the
 *   benchmark's rows have always been measured against (before the webhook ran on Hono).
 * - `hono`: the same answers through the webhook's own stack (http/app.ts's Hono app, served by
 *   webhooks/server.ts through @hono/node-server, the body read by http/read-body.ts), so bare vs
 *   hono is what Hono and its adaptor cost per request, handlers aside.
 * Run as a child process (`node --import tsx`) with the webhook's variables: WEBHOOK_HOST,
 * WEBHOOK_PORT, WEBHOOK_CERT_FILE, WEBHOOK_KEY_FILE; and optionally FIXED_ANSWERS_FILE, a JSON
 * map from request URL to answer text (e.g. the webhook's own answer to a 50-Machine /convert,
 * so the limit sends as many bytes back as the webhook does).
 */
import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer } from 'node:https'
import { createHttpApp } from '../../../src/http/app'
import { readBody } from '../../../src/http/read-body'
import { healthRoutes } from '../../../src/observability/health'
import { silentLogger } from '../../../src/observability/logger'
import { startWebhookServer } from '../../../src/webhooks/server'

const fixed = JSON.stringify({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  response: { uid: '0b5e9e5e-1111-4a7e-9c1e-000000000001', allowed: true },
})

const env = process.env
const answers: Record<string, string> = env.FIXED_ANSWERS_FILE
  ? JSON.parse(readFileSync(env.FIXED_ANSWERS_FILE, 'utf8'))
  : {}
const REVIEW_PATHS = ['/validate', '/mutate', '/convert']
const BODY_LIMIT = 64 * 1024 * 1024
const host = env.WEBHOOK_HOST ?? '127.0.0.1'
const port = Number(env.WEBHOOK_PORT ?? 0)
const certFile = env.WEBHOOK_CERT_FILE ?? 'tls.crt'
const keyFile = env.WEBHOOK_KEY_FILE ?? 'tls.key'

function sendJson(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, [
    'Content-Type',
    'application/json',
    'Content-Length',
    String(Buffer.byteLength(body)),
  ])
  response.end(body)
}

// Reads the body like the webhook does (the request is consumed), then answers the same bytes.
async function bareListener(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = request.url ?? '/'
  const path = url.split('?')[0] ?? url
  if (request.method === 'POST' && REVIEW_PATHS.includes(path)) {
    await readBody(request, BODY_LIMIT)
    sendJson(response, 200, answers[url] ?? fixed)
    return
  }
  sendJson(response, 200, '{"status":"ok"}')
}

async function startBare(): Promise<() => Promise<void>> {
  const material = { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') }
  const server = createServer({ ...material, minVersion: 'TLSv1.2' }, (request, response) => {
    bareListener(request, response).catch(() => response.destroy())
  })
  // As webhooks/server.ts sets them.
  server.keepAliveTimeout = 60_000
  server.requestTimeout = 30_000
  await new Promise<void>((resolve) => server.listen(port, host, resolve))
  return async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

async function startHono(): Promise<() => Promise<void>> {
  const app = createHttpApp()
  for (const path of REVIEW_PATHS) {
    app.post(path, async (c) => {
      await readBody(c.env.incoming, BODY_LIMIT)
      return c.body(answers[c.env.incoming.url ?? ''] ?? fixed, 200, {
        'Content-Type': 'application/json',
      })
    })
  }
  healthRoutes(app, { ready: {} })
  const server = await startWebhookServer(app, {
    host,
    port,
    certFile,
    keyFile,
    logger: silentLogger(),
  })
  return () => server.close()
}

const stop = env.FIXED_ANSWER_STACK === 'hono' ? await startHono() : await startBare()
process.once('SIGTERM', () => {
  void stop().then(() => process.exit(0))
})
