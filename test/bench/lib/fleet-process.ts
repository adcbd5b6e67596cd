/**
 * @module Runs a bundled function (dist/*.js) as a child process and tracks its peak resident
 * memory from /proc/<pid>/status `VmHWM` (the kernel's high-water mark, so sampling every 100 ms
 * only misses growth in the last 100 ms before exit).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The repository's dist/ directory (built by `npm run build`, which scripts/bench.sh runs). */
export const distDir = join(import.meta.dirname, '..', '..', '..', 'dist')

/** A high-water mark in MB, or undefined once the process is gone. */
export function peakRssMb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = /^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1]
    return kb === undefined ? undefined : Number(kb) / 1024
  } catch {
    return undefined
  }
}

export interface FunctionProcess {
  child: ChildProcess
  /** The highest VmHWM seen so far, in MB. */
  peakMb(): number
  /** Resolves with the exit code. */
  exited: Promise<number>
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<number>
}

/** Starts `node dist/<file> ...args` with `env` added to this process's environment. */
export function startFunction(
  file: string,
  args: string[],
  env: Record<string, string>,
): FunctionProcess {
  const child = spawn(process.execPath, [join(distDir, file), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  let peak = 0
  const sample = () => {
    if (child.pid !== undefined) peak = Math.max(peak, peakRssMb(child.pid) ?? 0)
  }
  const timer = setInterval(sample, 100)
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      clearInterval(timer)
      if (code !== 0 && signal !== 'SIGTERM') {
        reject(new Error(`${file} exited with ${code ?? signal}: ${stderr}`))
      } else resolve(code ?? 0)
    })
  })
  return {
    child,
    peakMb: () => {
      sample()
      return peak
    },
    exited,
    async stop() {
      sample()
      child.kill('SIGTERM')
      return await exited
    },
  }
}
