/**
 * @module The adopt report as text (the default) or JSON, like `machine-api plan`: per unit its
 * outcome, then its problems, steps and notes.
 */
import type { AdoptReport } from './run'

/** The report as lines of text. */
export function renderAdoptReport(report: AdoptReport, dryRun: boolean): string {
  const lines: string[] = []
  for (const unit of report.units) {
    lines.push(`${unit.title}: ${unit.outcome} (${unit.machines} Machine(s))`)
    for (const problem of unit.problems) lines.push(`  ! ${problem}`)
    if (unit.steps.length > 0) lines.push(dryRun ? '  would:' : '  did:')
    for (const step of unit.steps) lines.push(`    - ${step}`)
    for (const note of unit.notes) lines.push(`  note: ${note}`)
  }
  if (report.units.some((u) => u.outcome === 'refused')) {
    lines.push(
      'nothing was changed: fix the problems above (or --force what may be dropped) and run again',
    )
  }
  return `${lines.join('\n')}\n`
}
