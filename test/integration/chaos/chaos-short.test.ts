/**
 * The short, seeded version of `npm run chaos`: every scenario but the full-only ones (capacity, drift) at
 * its small size, each on its own
 * control plane (one of them stops its apiserver). Each must inject faults and end with no
 * duplicates, orphans, stuck Machines or lost objects (`n/a` where the scenario has no Machines).
 */
import { describe, expect, inject, it } from 'vitest'
import { failedCounts } from '../../chaos/lib/scenario'
import { scenarios } from '../../chaos/scenarios'

const seed = Number(process.env.CHAOS_SEED ?? 20261202)
const debug = process.env.CHAOS_DEBUG === '1'

describe('chaos (short)', () => {
  it.each(scenarios.filter((s) => !s.fullOnly).map((s) => [s.id, s] as const))(
    '%s',
    { timeout: 600_000 },
    async (_, scenario) => {
      const report = await scenario.run({
        seed,
        size: 'short',
        shared: { kubeconfigPath: inject('kubeconfigPath'), kubectlPath: inject('kubectlPath') },
        log: (m) => {
          if (debug) console.error(`[chaos] ${scenario.id}: ${m}`)
        },
      })
      expect(report.runs).toBeGreaterThan(0)
      expect(report.faultsInjected).toBeGreaterThan(0)
      const counts = {
        duplicates: report.duplicates,
        orphans: report.orphans,
        stuck: report.stuck,
        lost: report.lost,
      }
      expect(failedCounts(report), JSON.stringify(counts)).toEqual([])
      // Only a scenario without Machines may leave a count out, and never the lost count.
      expect(report.lost).not.toBe('n/a')
    },
  )
})
