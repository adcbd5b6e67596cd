/**
 * @module The process side of the CLI for `functions/*.ts`: real stdout/stderr/env, the package
 * root, and the exit once a command is done (servers keep running). It imports no command, so
 * each entry point bundles only the commands it runs.
 */
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CliIo, CommandOutcome } from './command'

/**
 * Runs `run` with the process's I/O and exits with its code unless it started a server.
 * `entryUrl` is the calling entry point's `import.meta.url` (functions/x.ts or dist/x.js, both one
 * level below the package root).
 */
export async function runMain(
  entryUrl: string,
  run: (io: CliIo) => Promise<CommandOutcome>,
): Promise<void> {
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
  const outcome = await run(io)
  if (outcome !== 'running') process.exit(outcome)
}
