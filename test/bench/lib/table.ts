/** @module The benchmark table printed at the end of a run. */
import type { BenchReport } from './bench'

function cell(value: number | undefined, unit = ''): string {
  if (value === undefined || Number.isNaN(value)) return '-'
  const text = Math.abs(value) >= 100 ? value.toFixed(0) : String(value)
  return unit ? `${text} ${unit}` : text
}

/** One row per measurement: benchmark, figure, median, limit and ratio. */
export function formatTable(reports: readonly BenchReport[]): string {
  const rows: string[][] = [['benchmark', 'figure', 'median', 'limit', 'ratio', 'runs']]
  for (const report of reports) {
    for (const m of report.measurements) {
      rows.push([
        report.id,
        m.name,
        cell(m.value, m.unit),
        m.limit ? `${cell(m.limit.value, m.unit)} (${m.limit.name})` : '-',
        cell(m.ratio),
        String(m.samples.length),
      ])
    }
  }
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? []
  return rows
    .map((r) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  '))
    .join('\n')
    .concat('\n')
}
