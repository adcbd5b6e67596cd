/**
 * @module Starts a real nats-server with JetStream on loopback (free port, temporary store) for
 * integration tests, and stops it without leaving processes or files behind. The binary comes from
 * build.sh (built from the Go module, cached outside the repository).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { connect } from '@nats-io/transport-node'
import { freePort } from '../controlplane/free-port'
import { startSupervised } from '../controlplane/supervised-process'

const buildScript = fileURLToPath(new URL('./build.sh', import.meta.url))

/** A running nats-server. */
export interface NatsServer {
  /** `nats://<address>:<port>` */
  readonly url: string
  stop(): Promise<void>
}

/** The nats-server binary path (builds it on first use; a warm call only hashes the pins). */
export async function natsServerBinary(): Promise<string> {
  const { stdout } = await promisify(execFile)('bash', [buildScript], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  })
  const path = stdout.trim().split('\n').pop()
  if (!path) throw new Error('nats build.sh printed no path')
  return path
}

/**
 * Starts nats-server with JetStream; resolves once a client can connect. `address` is where it
 * listens (default 127.0.0.1; the e2e tests' pods reach it on the real node's host address).
 */
export async function startNatsServer(address = '127.0.0.1'): Promise<NatsServer> {
  const binary = await natsServerBinary()
  const dir = mkdtempSync(join(tmpdir(), 'machine-api-nats-'))
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const url = `nats://${address}:${port}`
    const proc = startSupervised({
      name: 'nats-server',
      command: binary,
      args: ['-js', '-a', address, '-p', String(port), '-sd', join(dir, 'store'), '-n', 'test'],
      logPath: join(dir, `nats-${attempt}.log`),
    })
    const stop = async () => {
      await proc.stop()
      rmSync(dir, { recursive: true, force: true })
    }
    const deadline = Date.now() + 20_000
    while (proc.isRunning() && Date.now() < deadline) {
      try {
        const nc = await connect({ servers: url, reconnect: false, timeout: 1000 })
        await nc.close()
        return { url, stop }
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
    // Another process may have taken the port between freePort() and the bind: try another.
    await proc.stop()
    if (attempt >= 3) {
      const tail = proc.tail()
      rmSync(dir, { recursive: true, force: true })
      throw new Error(`nats-server did not start:\n${tail}`)
    }
  }
}
