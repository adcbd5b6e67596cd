/**
 * @module Entry point of the one-shot sweep (CronJob): `machine-api sweep`. Publishes every key to
 * JetStream when NATS_URL is set, else reconciles each here; then the orphan sweep
 * ($ORPHAN_SWEEP / `--orphans`: report (default), terminate or off). Exits 1 when a kind could
 * not be listed.
 */
import { runMain } from '../src/cli/process-main'

await runMain(['sweep', ...process.argv.slice(2)], import.meta.url)
