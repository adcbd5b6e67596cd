/**
 * @module The crash scenario's counts: duplicates, orphans and lost from the run audit (finished
 * after the teardown), stuck from the look at the bound (two sweep periods after the last restart)
 * plus Machines the teardown could not delete; plus where the kills landed.
 */
import type { RunCounts } from './audit'
import type { InFlight } from './crash-in-flight'
import { isBusy } from './crash-in-flight'
import type { TeardownResult } from './crash-teardown'
import type { FleetAudit } from './fleet-snapshot'
import type { ScenarioReport } from './scenario'

interface Waited {
  converged: boolean
  audit: FleetAudit
  waitedMs: number
}

export function crashReport(input: {
  title: string
  seed: number
  cycles: number
  kills: readonly InFlight[]
  restartMs: readonly number[]
  boundMs: number
  bounded: Waited
  final: Waited
  teardown: TeardownResult
  counts: RunCounts
}): ScenarioReport {
  const { kills, bounded, final, teardown, counts } = input
  const count = (test: (k: InFlight) => boolean) => kills.filter(test).length
  return {
    id: 'crash',
    title: input.title,
    seed: input.seed,
    runs: input.cycles,
    faultsInjected: kills.length,
    duplicates: counts.duplicates,
    orphans: counts.orphans,
    stuck:
      bounded.audit.notRunning.length + bounded.audit.wrongCount.length + teardown.machinesLeft,
    lost: counts.lost,
    details: {
      audit: counts.breakdown,
      kills: kills.length,
      killsMidReconcile: count(isBusy),
      killsWhileProvisioning: count((k) => k.provisioning > 0),
      killsWithCreateClaimHeld: count((k) => k.claimed > 0),
      killsBetweenLaunchAndRecord: count((k) => k.launchedUnrecorded > 0),
      killsBetweenGroupLaunchAndClaim: count((k) => k.groupUnclaimed > 0),
      killsWhileDeleting: count((k) => k.deleting > 0),
      restartMsMax: Math.max(0, ...input.restartMs),
      restartMsMean: Math.round(
        input.restartMs.reduce((a, b) => a + b, 0) / Math.max(1, input.restartMs.length),
      ),
      boundMs: input.boundMs,
      convergedWithinBound: bounded.converged,
      convergedMsAfterLastRestart: bounded.waitedMs + (bounded.converged ? 0 : final.waitedMs),
      stuckAtBound: [...bounded.audit.notRunning, ...bounded.audit.wrongCount],
      machinesAtEnd: final.audit.machines,
      teardown,
    },
  }
}
