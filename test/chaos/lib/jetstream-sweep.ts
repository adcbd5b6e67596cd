/**
 * @module The one-shot sweep as the CronJob runs it: `node dist/sweep.js` with NATS_URL set, so it
 * publishes every key to JetStream (duplicate hints for keys the workers are already handling).
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const sweepBundle = fileURLToPath(new URL('../../../dist/sweep.js', import.meta.url))

/** Runs one sweep to completion; resolves with its exit code (output discarded). */
export async function sweepOnce(env: Record<string, string>): Promise<number> {
  if (!existsSync(sweepBundle)) throw new Error(`${sweepBundle} is missing: run \`npm run build\``)
  const child = spawn(process.execPath, [sweepBundle], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: 'ignore',
  })
  return await new Promise<number>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => resolve(code ?? 1))
  })
}

/** Sweeps again and again, a random pause apart, until stopped; counts the runs and failures. */
export function sweepRepeatedly(options: { env: Record<string, string>; pauseMs: () => number }): {
  stop(): Promise<{ runs: number; failed: number }>
} {
  let running = true
  let runs = 0
  let failed = 0
  const loop = (async () => {
    while (running) {
      runs += 1
      if ((await sweepOnce(options.env)) !== 0) failed += 1
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs()))
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      return { runs, failed }
    },
  }
}
