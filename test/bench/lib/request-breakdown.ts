/**
 * @module Where a benchmark's requests go, by `verb resource`, over several runs: the median per
 * unit (per Machine) of each key, and the one line the bench prints with it. Pure, unit-tested;
 * the per-run totals alone hide which request moved between two runs or two commits.
 */
import type { RequestCounts } from './apiserver-metrics-text'
import { median } from './stats'

/**
 * Per key, the median over `runs` of its count divided by `n` (a run without the key counts 0),
 * rounded to 2 decimals, largest first, zeros left out.
 */
export function medianPerUnit(runs: readonly RequestCounts[], n: number): RequestCounts {
  const keys = new Set(runs.flatMap((run) => Object.keys(run)))
  const out = [...keys].map((key) => {
    const value = median(runs.map((run) => (run[key] ?? 0) / n))
    return [key, Math.round(value * 100) / 100] as const
  })
  return Object.fromEntries(
    out.filter(([, value]) => value !== 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
  )
}

/** `create events 4.1, patch machines 3, ...`: a breakdown on one line, largest first. */
export function formatBreakdown(counts: RequestCounts): string {
  return Object.entries(counts)
    .map(([key, value]) => `${key} ${value}`)
    .join(', ')
}
