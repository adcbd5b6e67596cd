/**
 * `npm run chaos [-- --seed N] [--only id,id] [--short]`: runs every scenario at full size, prints
 * runs, faults injected, duplicates, orphans, stuck and lost per scenario, writes
 * test/chaos/results/<id>.json, and exits 1 when any of the last four is not 0.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { formatReports } from './lib/report-table'
import { failedCounts, type ScenarioReport } from './lib/scenario'
import { scenarios } from './scenarios'

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    only: { type: 'string' },
    short: { type: 'boolean', default: false },
  },
})
const seed = values.seed ? Number(values.seed) : Date.now() % 100_000
const only = values.only?.split(',').filter(Boolean)
const selected = scenarios.filter((s) => !only || only.includes(s.id))
if (only && selected.length !== only.length) {
  console.error(`unknown scenario in --only; known: ${scenarios.map((s) => s.id).join(', ')}`)
  process.exit(2)
}

const resultsDir = join(import.meta.dirname, 'results')
mkdirSync(resultsDir, { recursive: true })
const reports: ScenarioReport[] = []
const failures: string[] = []
for (const scenario of selected) {
  const log = (message: string) => console.error(`[chaos] ${scenario.id}: ${message}`)
  const started = performance.now()
  log(`${scenario.title} (seed ${seed})`)
  try {
    const report = await scenario.run({ seed, size: values.short ? 'short' : 'full', log })
    const seconds = Math.round((performance.now() - started) / 100) / 10
    reports.push(report)
    writeFileSync(
      join(resultsDir, `${scenario.id}.json`),
      `${JSON.stringify({ ...report, seconds, date: new Date().toISOString() }, null, 2)}\n`,
    )
    const bad = failedCounts(report)
    if (bad.length > 0) failures.push(`${scenario.id} (${bad.join(', ')})`)
    log(`done in ${seconds} s${bad.length ? `; NOT ZERO: ${bad.join(', ')}` : ''}`)
  } catch (error) {
    failures.push(`${scenario.id} (error)`)
    log(`FAILED ${error instanceof Error ? (error.stack ?? error.message) : error}`)
  }
}
process.stdout.write(formatReports(reports))
if (failures.length > 0) console.error(`[chaos] failed: ${failures.join('; ')}`)
process.exit(failures.length > 0 ? 1 : 0)
