/** @module Entry point of the webhook function: `machine-api webhook` (HTTPS /mutate /validate /convert). */
import { webhookCommand } from '../src/cli/commands/webhook'
import { runMain } from '../src/cli/process-main'
import { runCommand } from '../src/cli/run-command'

// Only this command is imported, so the bundle carries nothing the other commands need.
await runMain(import.meta.url, (io) => runCommand(webhookCommand, process.argv.slice(2), io))
