/**
 * @module Starts moto's EC2 server (PyPI `moto[server]`, installed by ./install.sh) on a free
 * loopback port for a test file, and stops it without leaving processes behind. Clients reach it
 * through a fault proxy without faults, which adds the one EC2 behaviour the provider relies on
 * that moto 5.2.5 lacks: DescribeInstances filtered by `client-token` (fault-proxy.ts).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { freePort } from '../controlplane/free-port'
import { startSupervised } from '../controlplane/supervised-process'
import { startFaultProxy } from './fault-proxy'

const execFileAsync = promisify(execFile)
const installScript = fileURLToPath(new URL('./install.sh', import.meta.url))

/** A running moto server. */
export interface MotoServer {
  /** e.g. `http://127.0.0.1:41234`; pass it as the EC2 client's endpoint (moto behind the proxy). */
  endpoint: string
  /** moto itself, without the proxy. */
  motoEndpoint: string
  /** Forgets every resource (POST /moto-api/reset), for isolation between tests. */
  reset(): Promise<void>
  stop(): Promise<void>
  /** The server's log tail, for failure messages. */
  tail(lines?: number): string
}

/**
 * The moto_server path: $MACHINE_API_MOTO_SERVER when set (the test script installs once up
 * front), else whatever install.sh prints (seconds when warm; about a minute cold).
 */
export async function motoServerPath(): Promise<string> {
  const fromEnv = process.env.MACHINE_API_MOTO_SERVER
  if (fromEnv) return fromEnv
  const { stdout } = await execFileAsync('bash', [installScript], { encoding: 'utf8' })
  const path = stdout.trim().split('\n').pop()
  if (!path) throw new Error('moto install.sh printed no path')
  return path
}

async function answers(endpoint: string): Promise<boolean> {
  try {
    const res = await fetch(`${endpoint}/moto-api/data.json`, { signal: AbortSignal.timeout(1000) })
    await res.body?.cancel()
    return res.ok
  } catch {
    return false
  }
}

/** Starts moto_server on 127.0.0.1 and resolves once it answers HTTP; retries a lost port race. */
export async function startMotoServer(options: { timeoutMs?: number } = {}): Promise<MotoServer> {
  const bin = await motoServerPath()
  const logDir = mkdtempSync(join(tmpdir(), 'moto-'))
  let lastTail = ''
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort()
    const endpoint = `http://127.0.0.1:${port}`
    const proc = startSupervised({
      name: 'moto',
      command: bin,
      args: ['-H', '127.0.0.1', '-p', String(port)],
      logPath: join(logDir, `moto-${attempt}.log`),
      // Real EC2 rejects unknown instance types, AMIs and key pairs; moto only does when asked.
      env: {
        ...process.env,
        MOTO_EC2_ENABLE_INSTANCE_TYPE_VALIDATION: 'true',
        MOTO_ENABLE_AMI_VALIDATION: 'true',
        MOTO_ENABLE_KEYPAIR_VALIDATION: 'true',
      },
    })
    const deadline = Date.now() + (options.timeoutMs ?? 30_000)
    while (proc.isRunning() && Date.now() < deadline) {
      if (await answers(endpoint)) {
        const proxy = await startFaultProxy(endpoint)
        return {
          endpoint: proxy.endpoint,
          motoEndpoint: endpoint,
          async reset() {
            const res = await fetch(`${endpoint}/moto-api/reset`, { method: 'POST' })
            if (!res.ok) throw new Error(`moto reset: HTTP ${res.status}`)
            await res.body?.cancel()
          },
          async stop() {
            await proxy.stop()
            await proc.stop()
          },
          tail: (lines) => proc.tail(lines),
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    lastTail = proc.tail()
    await proc.stop()
  }
  throw new Error(`moto_server did not start:\n${lastTail}`)
}
