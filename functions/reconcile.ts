/**
 * @module Entry point of the CloudEvents HTTP reconcile function (Knative ApiServerSource /
 * PingSource sink): `machine-api reconcile`.
 */
import { reconcileCommand } from '../src/cli/commands/reconcile'
import { runMain } from '../src/cli/process-main'
import { runCommand } from '../src/cli/run-command'

// Only this command is imported, so the bundle carries nothing the other commands need.
await runMain(import.meta.url, (io) => runCommand(reconcileCommand, process.argv.slice(2), io))
