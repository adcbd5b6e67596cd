/**
 * @module Entry point of the long-running worker: `machine-api worker` (`--bus in-process` or
 * `--bus jetstream` with `--bridge`; `--controllers`).
 */
import { runMain } from '../src/cli/process-main'

await runMain(['worker', ...process.argv.slice(2)], import.meta.url)
