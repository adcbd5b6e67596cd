#!/usr/bin/env node
/** @module Entry point of the `machine-api` command line (package.json `bin`). */
import { runCli } from '../src/cli/main'
import { runMain } from '../src/cli/process-main'

await runMain(import.meta.url, (io) => runCli(process.argv.slice(2), io))
