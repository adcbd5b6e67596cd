/**
 * @module Runs the bundled `machine-api adopt` (`dist/cli.js`, what ships) as a child process
 * that a scenario can SIGKILL at any moment: what an operator's terminal, CI job or laptop does
 * when it dies in the middle of an adoption.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { AdoptReport } from '../../../src/adopt/run'
import { chaosOwnerId, chaosRegion } from './aws-world'

const cliBundle = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url))

/** How one run of the command ended. */
export type AdoptRun =
  | { type: 'killed'; afterMs: number }
  | { type: 'exited'; exitCode: number; report?: AdoptReport; stderr: string }

/**
 * Runs `machine-api adopt <args> -o json` with `env` on top of the parent's; with `killAfterMs`,
 * SIGKILLs it then unless it already exited.
 */
export async function runAdoptProcess(
  args: readonly string[],
  env: Record<string, string>,
  killAfterMs?: number,
): Promise<AdoptRun> {
  if (!existsSync(cliBundle)) {
    throw new Error(`${cliBundle} is missing: run \`npm run build\` first`)
  }
  const child = spawn(process.execPath, [cliBundle, 'adopt', ...args, '--output', 'json'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  let killed = false
  const timer =
    killAfterMs === undefined
      ? undefined
      : setTimeout(() => {
          killed = child.kill('SIGKILL')
        }, killAfterMs)
  const exitCode = await new Promise<number>((resolve) => {
    child.once('exit', (code) => resolve(code ?? -1))
  })
  clearTimeout(timer)
  if (killed) return { type: 'killed', afterMs: killAfterMs ?? 0 }
  // A refused or failed run prints its report on stderr, a good one on stdout.
  // Node's own warnings (the SDK's on an old Node) come before it on stderr.
  const text = exitCode === 0 ? stdout : stderr.slice(Math.max(0, stderr.search(/^\{/m)))
  try {
    return { type: 'exited', exitCode, report: JSON.parse(text) as AdoptReport, stderr }
  } catch {
    return { type: 'exited', exitCode, stderr }
  }
}

/**
 * The arguments and environment that point `machine-api adopt` at an aws world: its namespace, its
 * credentials Secret, the fault proxy in front of moto (which counts the command's EC2 calls).
 */
export function adoptInWorld(input: {
  namespace: string
  kubeconfigPath: string
  ec2Endpoint: string
  wait: string
}): { args: string[]; env: Record<string, string> } {
  return {
    args: [
      ...['--namespace', input.namespace, '--credentials-secret', 'aws'],
      ...['--region', chaosRegion, '--ec2-endpoint', input.ec2Endpoint, '--wait', input.wait],
    ],
    env: {
      KUBECONFIG: input.kubeconfigPath,
      MACHINE_API_OWNER_ID: chaosOwnerId,
      AWS_REGION: chaosRegion,
      AWS_ACCESS_KEY_ID: 'AKIAMOTOCHAOS000',
      AWS_SECRET_ACCESS_KEY: 'chaos-secret',
    },
  }
}
