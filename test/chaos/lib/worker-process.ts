/**
 * @module Runs the bundled reconcile worker (`dist/worker.js`, what the image runs) as a child
 * process that a scenario can SIGKILL and start again. Its JSON log goes to a file, so a failing
 * scenario can show the tail.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, existsSync, openSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../../harness/controlplane/free-port'
import { waitFor } from '../../harness/kube'

const workerBundle = fileURLToPath(new URL('../../../dist/worker.js', import.meta.url))

export interface WorkerProcessOptions {
  /** Environment on top of the parent's: KUBECONFIG, WATCH_NAMESPACE, AWS_EC2_ENDPOINT, BUS... */
  env: Record<string, string>
  /** Directory for `worker-<n>.log`. */
  logDir: string
  /** Names the log file when several workers run (default `worker`). */
  name?: string
}

export interface WorkerProcess {
  /** Starts (or restarts) the worker; resolves once /healthz answers. */
  start(): Promise<void>
  /** SIGKILL: no cleanup, no graceful stop. Resolves once the process is gone. */
  kill(): Promise<void>
  /** SIGTERM and wait (a graceful stop). */
  stop(): Promise<void>
  /** GET /readyz: true when 200. */
  ready(): Promise<boolean>
  /** How many times the process was started. */
  readonly starts: number
  /** The metrics text (Prometheus) of the running process. */
  metrics(): Promise<string>
  /** The last lines of the current log. */
  tail(lines?: number): string
  /**
   * Resolves true as soon as the current log gets a new line containing `text` (written after
   * this call), false after `timeoutMs`: lets a scenario strike right after a logged step.
   */
  waitForLog(text: string, timeoutMs: number): Promise<boolean>
}

export function workerProcess(options: WorkerProcessOptions): WorkerProcess {
  if (!existsSync(workerBundle)) {
    throw new Error(`${workerBundle} is missing: run \`npm run build\` first`)
  }
  const name = options.name ?? 'worker'
  let child: ChildProcess | undefined
  let port = 0
  let starts = 0
  let logPath = ''

  const url = (path: string) => `http://127.0.0.1:${port}${path}`
  const exited = (proc: ChildProcess) =>
    proc.exitCode !== null || proc.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => proc.once('exit', () => resolve()))

  return {
    get starts() {
      return starts
    },
    async start() {
      if (child && !(child.exitCode !== null || child.signalCode !== null)) {
        throw new Error(`${name} is already running`)
      }
      port = await freePort()
      starts += 1
      logPath = join(options.logDir, `${name}-${starts}.log`)
      const fd = openSync(logPath, 'a')
      child = spawn(process.execPath, [workerBundle], {
        // CHAOS_WORKER_LOG_LEVEL=debug logs every reconcile's outcome, to see what a slow Machine waited on.
        env: {
          ...process.env,
          LOG_LEVEL: process.env.CHAOS_WORKER_LOG_LEVEL ?? 'info',
          ...options.env,
          PORT: String(port),
        },
        stdio: ['ignore', fd, fd],
      })
      closeSync(fd)
      const proc = child
      // waitFor retries a throwing probe, so an exit is a value here, thrown after the wait.
      const outcome = await waitFor(
        `${name} /healthz`,
        async () => {
          if (proc.exitCode !== null) return 'exited'
          return (await fetch(url('/healthz')).catch(() => undefined))?.ok === true && 'up'
        },
        // Generous: on a loaded 2-core machine a cold start of the bundle takes tens of seconds.
        { intervalMs: 100, timeoutMs: 120_000 },
      )
      if (outcome === 'exited') throw new Error(`${name} exited: ${this.tail(20)}`)
    },
    async kill() {
      if (!child) return
      const proc = child
      proc.kill('SIGKILL')
      await exited(proc)
    },
    async stop() {
      if (!child) return
      const proc = child
      proc.kill('SIGTERM')
      await exited(proc)
    },
    async ready() {
      return (await fetch(url('/readyz')).catch(() => undefined))?.ok === true
    },
    async metrics() {
      return await (await fetch(url('/metrics'))).text()
    },
    async waitForLog(text, timeoutMs) {
      const path = logPath
      const size = () => (path && existsSync(path) ? statSync(path).size : 0)
      const from = size()
      const deadline = Date.now() + timeoutMs
      while (Date.now() < deadline) {
        if (size() > from && readFileSync(path).subarray(from).toString('utf8').includes(text)) {
          return true
        }
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      return false
    },
    tail(lines = 40) {
      if (!logPath || !existsSync(logPath)) return ''
      return readFileSync(logPath, 'utf8').split('\n').slice(-lines).join('\n')
    },
  }
}
