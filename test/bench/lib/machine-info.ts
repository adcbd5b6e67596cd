/** @module What the benchmarks ran on, stored with every result. */
import { execFileSync } from 'node:child_process'
import { cpus, totalmem } from 'node:os'

export function machineInfo(): Record<string, unknown> {
  let commit = 'unknown'
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  } catch {
    // Not a git checkout: the figures still stand on their own.
  }
  return {
    date: new Date().toISOString(),
    commit,
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGB: Math.round(totalmem() / 1024 ** 3),
  }
}
