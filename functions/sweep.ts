/**
 * @module Entry point of the one-shot sweep (CronJob): `machine-api sweep`. Publishes every key to
 * JetStream when NATS_URL is set, else reconciles each here; then the orphan sweep
 * ($ORPHAN_SWEEP / `--orphans`: report (default), terminate or off). Exits 1 when a kind could
 * not be listed.
 */
import { sweepCommand } from '../src/cli/commands/sweep'
import { runMain } from '../src/cli/process-main'
import { runCommand } from '../src/cli/run-command'

// Only this command is imported, so the bundle carries nothing the other commands need.
await runMain(import.meta.url, (io) => runCommand(sweepCommand, process.argv.slice(2), io))
