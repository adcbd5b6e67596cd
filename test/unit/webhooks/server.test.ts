/** The HTTPS server: serves the webhook's app over TLS and picks up a rotated certificate without a restart. */
import { X509Certificate } from 'node:crypto'
import { mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { silentLogger } from '../../../src/observability/logger'
import { type RunningWebhookServer, startWebhookServer } from '../../../src/webhooks/server'
import { waitFor } from '../../harness/kube'
import { generateCertificates } from '../../harness/webhook-server'
import { testWebhookApp } from './reviews'

const cleanup: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

function certDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'))
  generateCertificates(dir)
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** GETs /healthz trusting `ca`; resolves with the serial of the certificate the server presented. */
function fetchSerial(
  server: RunningWebhookServer,
  ca: string,
): Promise<{ status: number; serial: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/healthz`, { ca, agent: false }, (res) => {
      const cert = (
        res.socket as unknown as { getPeerX509Certificate(): X509Certificate }
      ).getPeerX509Certificate()
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, serial: cert.serialNumber }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('startWebhookServer', () => {
  it('serves over TLS and reloads a rotated certificate without a restart', async () => {
    const dir = certDir()
    const server = await startWebhookServer(testWebhookApp(), {
      host: '127.0.0.1',
      port: 0,
      certFile: join(dir, 'tls.crt'),
      keyFile: join(dir, 'tls.key'),
      logger: silentLogger(),
      tlsReloadIntervalMs: 50,
    })
    cleanup.push(() => server.close())
    const ca = readFileSync(join(dir, 'ca.crt'), 'utf8')
    const first = await fetchSerial(server, ca)
    expect(first.status).toBe(200)

    // Rotate as cert-manager does: a new key pair from a new CA replaces the files.
    const next = certDir()
    renameSync(join(next, 'tls.crt'), join(dir, 'tls.crt'))
    renameSync(join(next, 'tls.key'), join(dir, 'tls.key'))
    const nextCa = readFileSync(join(next, 'ca.crt'), 'utf8')
    // No reloadTls() call: the file watcher must notice the swap on its own.
    const second = await waitFor('the rotated certificate to be served', () =>
      fetchSerial(server, nextCa).catch(() => undefined),
    )
    expect(second.status).toBe(200)
    expect(second.serial).not.toBe(first.serial)
    expect(second.serial).toBe(new X509Certificate(readFileSync(join(dir, 'tls.crt'))).serialNumber)
  })

  it('keeps the old certificate when the new files are unreadable', async () => {
    const dir = certDir()
    const server = await startWebhookServer(testWebhookApp(), {
      host: '127.0.0.1',
      port: 0,
      certFile: join(dir, 'tls.crt'),
      keyFile: join(dir, 'tls.key'),
      logger: silentLogger(),
    })
    cleanup.push(() => server.close())
    rmSync(join(dir, 'tls.key'))
    expect(await server.reloadTls()).toBe(false)
    const ca = readFileSync(join(dir, 'ca.crt'), 'utf8')
    expect((await fetchSerial(server, ca)).status).toBe(200)
  })
})
