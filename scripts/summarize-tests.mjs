// Adds up vitest JSON reports into the closing lines CI reads: each failed test with the first
// line of its failure (the run's own output may be cut off before it), then
// "tests: N passed, N failed".
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'

let passed = 0
let failed = 0
let skipped = 0
const failures = []
for (const file of process.argv.slice(2)) {
  const report = JSON.parse(readFileSync(file, 'utf8'))
  passed += report.numPassedTests
  failed += report.numFailedTests
  skipped += report.numPendingTests + report.numTodoTests
  for (const suite of report.testResults ?? []) {
    const where = relative(process.cwd(), suite.name ?? '')
    const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed')
    for (const test of failedTests) {
      const first = String(test.failureMessages?.[0] ?? '').split('\n')[0]
      // vitest's JSON reports a test timeout as this placeholder, without the timeout.
      const why = first.includes('STACK_TRACE_ERROR')
        ? `timed out after ${Math.round(test.duration ?? 0)} ms`
        : first
      failures.push(`FAILED ${where} > ${test.fullName}: ${why.slice(0, 300)}`)
    }
    // A file that failed outside any test (an import, a hook) has no failed assertion to name.
    if (suite.status === 'failed' && failedTests.length === 0) {
      failures.push(
        `FAILED ${where}: ${String(suite.message ?? '')
          .split('\n')[0]
          .slice(0, 300)}`,
      )
    }
  }
}
for (const line of failures) console.log(line)
if (skipped > 0) {
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
} else {
  console.log(`tests: ${passed} passed, ${failed} failed`)
}
process.exit(failed > 0 || failures.length > 0 || passed === 0 ? 1 : 0)
