/** @module The per-scenario table `npm run chaos` prints. */
import type { ScenarioReport } from './scenario'

const columns = ['runs', 'faultsInjected', 'duplicates', 'orphans', 'stuck', 'lost'] as const

export function formatReports(reports: readonly ScenarioReport[]): string {
  const rows: string[][] = [['scenario', 'seed', ...columns]]
  for (const r of reports) rows.push([r.id, String(r.seed), ...columns.map((c) => String(r[c]))])
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? []
  return `${rows.map((row) => row.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')).join('\n')}\n`
}
