// Adds up vitest JSON reports into the one closing line CI reads: "tests: N passed, N failed".
import { readFileSync } from 'node:fs'

let passed = 0
let failed = 0
let skipped = 0
for (const file of process.argv.slice(2)) {
  const report = JSON.parse(readFileSync(file, 'utf8'))
  passed += report.numPassedTests
  failed += report.numFailedTests
  skipped += report.numPendingTests + report.numTodoTests
}
if (skipped > 0) {
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
} else {
  console.log(`tests: ${passed} passed, ${failed} failed`)
}
process.exit(failed > 0 || passed === 0 ? 1 : 0)
