/**
 * @module The audit every scenario with Machines reports from. It watches the namespace's Machines
 * from before the first one (the ledger), takes the scenario's requests (intents), looks at the
 * fleet at the moments the scenario says it converged (checkpoints) and at the end, and counts:
 *
 * - duplicates: instances ever launched (EC2, terminated ones included) minus the Machines they
 *   were launched for, any instance whose Machine never existed counting whole; plus Machines
 *   created beyond what the requests allow (one slot filled twice).
 * - orphans: live instances no Machine owns and Machines whose instance is gone, each counted once
 *   however many looks saw it; plus Nodes no Machine claims at the last look (the node simulator
 *   removes a gone instance's Node within a pass, so a Node is judged only once all settled).
 * - lost: Machines a group wanted at a checkpoint that did not exist (requested, never came), or
 *   Machines deleted beyond what the requests allow (deleted without a request), once per Machine.
 *
 * Stuck stays with each scenario, measured against its own bound.
 */

import { duplicateInstances, groupCounts } from './audit-counts'
import {
  type FleetAudit,
  type FleetOptions,
  namespaceInstances,
  snapshotFleet,
} from './fleet-snapshot'
import { createIntents, type Intents } from './intents'
import { groupOf, startMachineLedger } from './machine-ledger'

/** How long the last look waits for Nodes of gone instances to go (several simulator passes). */
const nodeGraceMs = 10_000

/** A reported count, or `n/a` where the scenario cannot produce that fault at all. */
export type Count = number | 'n/a'

/** The audit's counts and what they are made of. */
export interface RunCounts {
  duplicates: number
  orphans: number
  lost: number
  breakdown: {
    instancesLaunched: number
    machinesSeen: number
    machinesEverRunning: number
    duplicateInstances: number
    duplicateMachines: number
    orphanInstances: string[]
    orphanNodes: string[]
    machinesWithoutInstance: string[]
    missingMachines: number
    deletedUnrequested: number
  }
}

export interface RunAudit {
  /** Record every request here: `want(group, n)`, `replace(group, n)` for a rollout. */
  intents: Intents
  /** Resolves once the ledger's watch runs: create Machines only after it. */
  ready: Promise<void>
  /** A look at a moment the scenario considers converged; returns what it saw. */
  checkpoint(): Promise<FleetAudit>
  /** A last look (after the scenario's teardown, if any), then the counts so far. */
  count(): Promise<RunCounts>
  /** Stops the watch (in a finally: after counting, or when the scenario failed). */
  stop(): Promise<void>
}

export function startAudit(options: FleetOptions): RunAudit {
  const ledger = startMachineLedger(options)
  const intents = createIntents()
  const orphanInstances = new Set<string>()
  let orphanNodes: string[] = []
  const withoutInstance = new Set<string>()
  const missing = new Map<string, number>()

  const look = async (): Promise<FleetAudit> => {
    const listedAt = Date.now()
    const { audit, machines } = await snapshotFleet(options)
    ledger.recordList(machines, listedAt)
    for (const id of audit.orphanInstanceIds) orphanInstances.add(id)
    for (const name of audit.machinesWithoutInstance) withoutInstance.add(name)
    const present = new Map<string, number>()
    for (const m of machines) {
      if (m.metadata?.deletionTimestamp) continue
      present.set(groupOf(m), (present.get(groupOf(m)) ?? 0) + 1)
    }
    for (const [group, intent] of intents.groups()) {
      const short = Math.max(0, intent.wanted - (present.get(group) ?? 0))
      missing.set(group, Math.max(missing.get(group) ?? 0, short))
    }
    return audit
  }

  return {
    intents,
    ready: ledger.ready,
    checkpoint: look,
    async count() {
      // A Node that outlives its instance by a few simulator passes is left behind for good.
      const graceUntil = Date.now() + nodeGraceMs
      orphanNodes = (await look()).orphanNodeNames
      while (orphanNodes.length > 0 && Date.now() < graceUntil) {
        await new Promise((resolve) => setTimeout(resolve, 500))
        orphanNodes = (await look()).orphanNodeNames
      }
      const launched = await namespaceInstances(options.ec2, options.namespace)
      const seen = ledger.machines()
      const dupInstances = duplicateInstances(launched, seen)
      const groups = groupCounts(seen.values(), intents.groups(), missing)
      return {
        duplicates: dupInstances + groups.duplicateMachines,
        orphans: orphanInstances.size + orphanNodes.length + withoutInstance.size,
        lost: groups.lost,
        breakdown: {
          instancesLaunched: launched.length,
          machinesSeen: seen.size,
          machinesEverRunning: [...seen.values()].filter((m) => m.everRunning).length,
          duplicateInstances: dupInstances,
          duplicateMachines: groups.duplicateMachines,
          orphanInstances: [...orphanInstances],
          orphanNodes,
          machinesWithoutInstance: [...withoutInstance],
          missingMachines: [...missing.values()].reduce((a, b) => a + b, 0),
          deletedUnrequested: groups.deletedUnrequested,
        },
      }
    },
    stop: () => ledger.stop(),
  }
}

/** Adds the counts of several namespaces' audits (a scenario running phases side by side). */
export function sumCounts(
  all: readonly RunCounts[],
): Pick<RunCounts, 'duplicates' | 'orphans' | 'lost'> {
  return {
    duplicates: all.reduce((s, c) => s + c.duplicates, 0),
    orphans: all.reduce((s, c) => s + c.orphans, 0),
    lost: all.reduce((s, c) => s + c.lost, 0),
  }
}
