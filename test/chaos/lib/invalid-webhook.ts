/**
 * @module The bundled webhook (`node dist/webhook.js`, what the image runs) as one child process
 * over TLS with a throwaway CA, so the bad-input scenario can prove it never restarted (same pid,
 * still running) and that its /readyz stayed OK while invalid objects poured in.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { get } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../../harness/controlplane/free-port'
import { waitFor } from '../../harness/kube'
import { generateCertificates } from '../../harness/webhook-server'

const webhookBundle = fileURLToPath(new URL('../../../dist/webhook.js', import.meta.url))

/** A running bundled webhook. */
export interface WebhookChild {
  /** https://127.0.0.1:PORT, for installApi. */
  url: string
  /** Base64 CA PEM, for installApi's caBundle. */
  caBundle: string
  /** The pid it was started with. */
  pid: number
  /** True while the very process started is alive (a restart would be a new process). */
  alive(): boolean
  /** GET /readyz over TLS: true when 200. */
  ready(): Promise<boolean>
  /** The last lines of its log. */
  tail(lines?: number): string
  stop(): Promise<void>
}

function getStatus(url: string, ca: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const req = get(url, { ca, timeout: 2000 }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(0))
  })
}

/** Starts `node dist/webhook.js` on a free loopback port; resolves once /readyz answers 200. */
export async function startWebhookChild(options: {
  kubeconfigPath: string
}): Promise<WebhookChild> {
  if (!existsSync(webhookBundle)) {
    throw new Error(`${webhookBundle} is missing: run \`npm run build\` first`)
  }
  const dir = mkdtempSync(join(tmpdir(), 'chaos-webhook-'))
  generateCertificates(dir)
  const ca = readFileSync(join(dir, 'ca.crt'))
  const port = await freePort()
  const logPath = join(dir, 'webhook.log')
  const fd = openSync(logPath, 'a')
  const child: ChildProcess = spawn(process.execPath, [webhookBundle], {
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      KUBECONFIG: options.kubeconfigPath,
      WEBHOOK_HOST: '127.0.0.1',
      WEBHOOK_PORT: String(port),
      WEBHOOK_CERT_FILE: join(dir, 'tls.crt'),
      WEBHOOK_KEY_FILE: join(dir, 'tls.key'),
    },
    stdio: ['ignore', fd, fd],
  })
  closeSync(fd)
  const url = `https://127.0.0.1:${port}`
  const alive = () => child.exitCode === null && child.signalCode === null
  const tail = (lines = 40) =>
    existsSync(logPath) ? readFileSync(logPath, 'utf8').split('\n').slice(-lines).join('\n') : ''
  const stop = async () => {
    if (alive()) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      child.kill('SIGTERM')
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitFor(
      'bundled webhook /readyz',
      async () => {
        if (!alive()) throw new Error(`webhook exited: ${tail(20)}`)
        return (await getStatus(`${url}/readyz`, ca)) === 200
      },
      { intervalMs: 100, timeoutMs: 30_000 },
    )
  } catch (error) {
    await stop()
    throw error
  }
  return {
    url,
    caBundle: ca.toString('base64'),
    pid: child.pid ?? 0,
    alive,
    ready: async () => (await getStatus(`${url}/readyz`, ca)) === 200,
    tail,
    stop,
  }
}
