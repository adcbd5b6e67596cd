/**
 * `npm run bench [-- --quick] [--only id,id] [--runs N]`: runs each benchmark on a fresh control
 * plane, prints one table and writes test/bench/results/<id>.json (plus summary.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startControlPlane } from '../harness/controlplane'
import { benches } from './benches'
import type { BenchOptions, BenchReport } from './lib/bench'
import { machineInfo } from './lib/machine-info'
import { formatTable } from './lib/table'

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    runs: { type: 'string' },
  },
})
const options: BenchOptions = {
  quick: values.quick ?? false,
  runs: values.runs ? Number(values.runs) : values.quick ? 1 : 3,
}
const only = values.only?.split(',').filter(Boolean)
const selected = benches.filter((b) => !only || only.includes(b.id))
if (only && selected.length !== only.length) {
  console.error(`unknown benchmark in --only; known: ${benches.map((b) => b.id).join(', ')}`)
  process.exit(2)
}

const resultsDir = join(import.meta.dirname, 'results')
mkdirSync(resultsDir, { recursive: true })
const machine = machineInfo()
const log = (message: string) => console.error(`[bench] ${message}`)
const reports: BenchReport[] = []
const failures: string[] = []
const startedAll = performance.now()

for (const bench of selected) {
  const started = performance.now()
  log(`${bench.id}: ${bench.title}`)
  const controlPlane = await startControlPlane(bench.controlPlane ?? {})
  try {
    const report = await bench.run({ options, controlPlane, log: (m) => log(`${bench.id}: ${m}`) })
    const seconds = Math.round((performance.now() - started) / 100) / 10
    reports.push(report)
    writeFileSync(
      join(resultsDir, `${bench.id}.json`),
      `${JSON.stringify({ ...report, machine, options, seconds }, null, 2)}\n`,
    )
    log(`${bench.id}: done in ${seconds} s`)
  } catch (error) {
    failures.push(bench.id)
    log(`${bench.id}: FAILED ${error instanceof Error ? (error.stack ?? error.message) : error}`)
  } finally {
    await controlPlane.stop()
  }
}

const totalSeconds = Math.round((performance.now() - startedAll) / 1000)
writeFileSync(
  join(resultsDir, 'summary.json'),
  `${JSON.stringify({ machine, options, totalSeconds, failures, reports }, null, 2)}\n`,
)
process.stdout.write(formatTable(reports))
log(
  `${reports.length} benchmarks in ${totalSeconds} s${failures.length ? `; failed: ${failures.join(', ')}` : ''}`,
)
process.exit(failures.length > 0 ? 1 : 0)
