/**
 * The long-running commands as real processes against the test control plane, through the thin
 * `functions/*.ts` entry points and through `machine-api <command>`: they start, answer on their
 * ports, and exit 0 on SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { get } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, inject, it } from 'vitest'
import { freePort } from '../../harness/controlplane/free-port'
import { waitFor } from '../../harness/kube'
import { generateCertificates } from '../../harness/webhook-server'

const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

function start(script: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, KUBECONFIG: inject('kubeconfigPath'), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  children.push(child)
  return child
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  child.kill('SIGTERM')
  return await exited
}

function httpsStatus(url: string, ca: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { ca }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    }).on('error', reject)
  })
}

describe('long-running commands', { timeout: 60_000 }, () => {
  it('functions/worker.ts serves health on $PORT and exits 0 on SIGTERM', async () => {
    const port = await freePort()
    const worker = start(
      'functions/worker.ts',
      ['--bus', 'in-process', '--controllers', 'machineset'],
      {
        PORT: String(port),
        SWEEP_PERIOD_SECONDS: '0',
      },
    )
    const status = await waitFor(
      'the worker to answer /healthz',
      async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status,
      { timeoutMs: 30_000, intervalMs: 100 },
    )
    expect(status).toBe(200)
    expect(await stop(worker)).toBe(0)
  })

  it('machine-api webhook serves HTTPS with the given certificate and exits 0 on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'machine-api-cli-tls-'))
    try {
      generateCertificates(dir)
      const port = await freePort()
      const webhook = start(
        'functions/cli.ts',
        ['webhook', '--host', '127.0.0.1', '--port', String(port)],
        {
          WEBHOOK_CERT_FILE: join(dir, 'tls.crt'),
          WEBHOOK_KEY_FILE: join(dir, 'tls.key'),
        },
      )
      const ca = readFileSync(join(dir, 'ca.crt'))
      // Any HTTP answer proves TLS with our certificate and the webhook's listener behind it.
      const status = await waitFor(
        'the webhook to answer over TLS',
        () => httpsStatus(`https://127.0.0.1:${port}/validate`, ca),
        { timeoutMs: 30_000, intervalMs: 100 },
      )
      expect(status).toBeGreaterThanOrEqual(200)
      expect(await stop(webhook)).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
