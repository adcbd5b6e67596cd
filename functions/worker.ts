/**
 * @module Entry point of the long-running worker: `machine-api worker` (`--bus in-process` or
 * `--bus jetstream` with `--bridge`; `--controllers`).
 */
import { workerCommand } from '../src/cli/commands/worker'
import { runMain } from '../src/cli/process-main'
import { runCommand } from '../src/cli/run-command'

// Only this command is imported, so the bundle carries nothing the other commands need.
await runMain(import.meta.url, (io) => runCommand(workerCommand, process.argv.slice(2), io))
