/** @module Entry point of the webhook function: `machine-api webhook` (HTTPS /mutate /validate /convert). */
import { runMain } from '../src/cli/process-main'

await runMain(['webhook', ...process.argv.slice(2)], import.meta.url)
