/** @module Starts a control plane binary under supervise.sh and stops it without leaving processes. */
import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const superviseScript = fileURLToPath(new URL('./supervise.sh', import.meta.url))

/** A running binary whose output goes to `logPath`. */
export interface SupervisedProcess {
  readonly name: string
  readonly logPath: string
  /** Resolves with the exit code (or signal) once the process is gone. */
  readonly exited: Promise<string>
  isRunning(): boolean
  /** Asks the process to stop, then kills its whole process group after `graceMs`. */
  stop(graceMs?: number): Promise<void>
  /** The last lines of its log, for error messages. */
  tail(lines?: number): string
}

/** Starts `command args` under the supervisor, logging stdout and stderr to `logPath`. */
export function startSupervised(options: {
  name: string
  command: string
  args: string[]
  logPath: string
  env?: NodeJS.ProcessEnv
}): SupervisedProcess {
  const log = createWriteStream(options.logPath, { flags: 'a' })
  const child: ChildProcess = spawn('bash', [superviseScript, options.command, ...options.args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group, so a terminal's Ctrl-C reaches only the launcher, which stops the
    // components in order, and so stop() can kill the whole group if the supervisor hangs.
    detached: true,
    env: options.env ?? process.env,
  })
  child.stdout?.pipe(log, { end: false })
  child.stderr?.pipe(log, { end: false })
  let running = true
  let stopping: Promise<void> | undefined
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      running = false
      resolve(signal ?? String(code))
    })
  })
  // The launcher may exit without calling stop(); do not let the open pipe keep it alive.
  child.unref()
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    ;(stream as unknown as { unref?: () => void } | null)?.unref?.()
  }

  return {
    name: options.name,
    logPath: options.logPath,
    exited,
    isRunning: () => running,
    stop(graceMs = 4000) {
      stopping ??= (async () => {
        if (running) {
          child.stdin?.end()
          const timer = setTimeout(() => killGroup(child.pid), graceMs)
          await exited
          clearTimeout(timer)
        }
        await new Promise<void>((resolve) => log.end(resolve))
      })()
      return stopping
    },
    tail(lines = 20) {
      try {
        return readFileSync(options.logPath, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
      } catch {
        return ''
      }
    },
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // already gone
  }
}
