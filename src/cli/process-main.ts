/**
 * @module The process side of the CLI for `functions/*.ts`: real stdout/stderr/env, the package
 * root, and the exit once a command is done (servers keep running).
 */
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CliIo } from './command'
import { runCli } from './main'

/**
 * Runs `argv` as `machine-api` would. `entryUrl` is the calling entry point's `import.meta.url`
 * (functions/x.ts or dist/x.js, both one level below the package root).
 */
export async function runMain(argv: readonly string[], entryUrl: string): Promise<void> {
  // `machine-api crds | head`: the reader went away; that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0)
    throw error
  })
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    packageRoot: dirname(dirname(fileURLToPath(entryUrl))),
  }
  const outcome = await runCli(argv, io)
  if (outcome !== 'running') process.exit(outcome)
}
