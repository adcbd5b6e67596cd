#!/usr/bin/env node
/** @module Entry point of the `machine-api` command line (package.json `bin`). */
import { runMain } from '../src/cli/process-main'

await runMain(process.argv.slice(2), import.meta.url)
