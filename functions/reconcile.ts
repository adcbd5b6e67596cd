/**
 * @module Entry point of the CloudEvents HTTP reconcile function (Knative ApiServerSource /
 * PingSource sink): `machine-api reconcile`.
 */
import { runMain } from '../src/cli/process-main'

await runMain(['reconcile', ...process.argv.slice(2)], import.meta.url)
