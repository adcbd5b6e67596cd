/**
 * @module Child processes for benchmarks: start one and time it until an HTTP(S) URL answers 200
 * (long-running functions) or until it exits (one-shots), and stop it by its own pid.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'

/** A started child process; `output` keeps the last bytes of stdout+stderr for error messages. */
export interface StartedProcess {
  child: ChildProcess
  output(): string
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>
}

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv
  cwd?: string
}

const outputTail = 8192

/** Spawns `command args` with piped output (kept, not printed). */
export function startProcess(
  command: string,
  args: string[],
  options: SpawnOptions = {},
): StartedProcess {
  const child = spawn(command, args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let tail = ''
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-outputTail)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => resolve())
  })
  return {
    child,
    output: () => tail,
    async stop(graceMs = 5000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
        await exited
        clearTimeout(timer)
      }
    },
  }
}

/** The status code of one GET of `url` (https with `ca` when given), or undefined on error. */
export async function httpStatus(url: string, ca?: string | Buffer): Promise<number | undefined> {
  const request = url.startsWith('https:') ? httpsRequest : httpRequest
  return await new Promise((resolve) => {
    const req = request(url, { method: 'GET', agent: false, ...(ca ? { ca } : {}) }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode))
    })
    req.setTimeout(2000, () => req.destroy())
    req.on('error', () => resolve(undefined))
    req.end()
  })
}

/**
 * Polls `url` every `intervalMs` until it answers 200; resolves with the milliseconds since
 * `startedAt`. Rejects when the process exits first or after `timeoutMs`.
 */
export async function waitUntilServing(
  started: StartedProcess,
  url: string,
  options: { startedAt: number; ca?: string | Buffer; intervalMs?: number; timeoutMs?: number },
): Promise<number> {
  const deadline = options.startedAt + (options.timeoutMs ?? 60_000)
  for (;;) {
    if (started.child.exitCode !== null) {
      throw new Error(
        `process exited (${started.child.exitCode}) before ${url} answered:\n${started.output()}`,
      )
    }
    if ((await httpStatus(url, options.ca)) === 200) return performance.now() - options.startedAt
    if (performance.now() > deadline) {
      throw new Error(`${url} did not answer 200 in time:\n${started.output()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 5))
  }
}

/** Runs `command args` to completion; resolves with its exit code and wall milliseconds. */
export async function timeToExit(
  command: string,
  args: string[],
  options: SpawnOptions = {},
): Promise<{ ms: number; code: number | null; output: string }> {
  const startedAt = performance.now()
  const started = startProcess(command, args, options)
  const code = await new Promise<number | null>((resolve) => {
    started.child.once('exit', (c) => resolve(c))
  })
  return { ms: performance.now() - startedAt, code, output: started.output() }
}
