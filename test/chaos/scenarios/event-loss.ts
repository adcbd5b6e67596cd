/**
 * @module event-loss: the same drive (a MachineSet scaled 0 -> N -> M -> 0, a lone Machine created
 * and deleted) three times, with the in-process bus's watch events passed through, all dropped
 * (the sweep alone must converge), and each delivered five times with seeded delays (duplicated and
 * out of order). Every phase must reach the same checkpoints, launch one instance per Machine and
 * create no extra Machine, and leave no instance or Node behind.
 */
import { uniqueName } from '../../harness/kube'
import { type RunAudit, startAudit, sumCounts } from '../lib/audit'
import { type AwsWorld, startAwsWorld } from '../lib/aws-world'
import { type ChaosEnvironment, startChaosEnvironment } from '../lib/environment'
import { startEventBus } from '../lib/event-bus'
import { drivePhase } from '../lib/event-drive'
import { dropAll, duplicateShuffled, type EventFault, passThrough } from '../lib/event-faults'
import { cloneWorldNamespace, deleteNamespaces } from '../lib/event-namespaces'
import { seededRandom } from '../lib/random'
import type { Scenario, ScenarioReport } from '../lib/scenario'

// provisioningMs: per checkpoint, on top of two sweep periods, for launching and joining the
// Machines (moto, the Node simulator) and deleting them.
const sizes = {
  short: { n: 2, m: 1, sweepSeconds: 3, provisioningMs: 30_000 },
  full: { n: 6, m: 3, sweepSeconds: 5, provisioningMs: 60_000 },
}

export const eventLossScenario: Scenario = {
  id: 'event-loss',
  title: 'watch events dropped, duplicated and reordered',
  async run({ seed, size, log, shared }): Promise<ScenarioReport> {
    const random = seededRandom(seed)
    const s = sizes[size]
    const sweepPeriodMs = s.sweepSeconds * 1000
    const faults: EventFault[] = [
      passThrough(),
      dropAll(),
      duplicateShuffled({ random, copies: 5, maxDelayMs: 1500 }),
    ]
    const namespace = uniqueName('chaos-events')
    let env: ChaosEnvironment | undefined
    let world: AwsWorld | undefined
    const extraNamespaces: string[] = []
    const audits: RunAudit[] = []
    try {
      env = await startChaosEnvironment(shared ? { shared } : {})
      world = await startAwsWorld({ kc: env.kc, kubeconfigPath: env.kubeconfigPath, namespace })
      // The phases run side by side, each in its own namespace with its own bus: they share
      // moto, the Node simulator and the control plane, and mostly wait on sweeps and timers.
      const names = faults.map((_, i) => (i === 0 ? namespace : `${namespace}-${i}`))
      const ready = world
      const started = env
      for (const name of names.slice(1)) {
        extraNamespaces.push(name)
        await cloneWorldNamespace(ready.kube, namespace, name)
      }
      const ledgers = await Promise.all(
        faults.map(async (fault, i) => {
          const phaseNamespace = names[i] ?? namespace
          const audit = startAudit({ kube: ready.kube, ec2: ready.ec2, namespace: phaseNamespace })
          audits.push(audit)
          await audit.ready
          const bus = await startEventBus({
            kc: started.kc,
            env: ready.workerEnv,
            namespace: phaseNamespace,
            sweepPeriodMs,
            interceptChanges: fault.intercept,
          })
          try {
            log(`phase ${fault.name} in ${phaseNamespace}`)
            const ledger = await drivePhase({
              kube: ready.kube,
              ec2: ready.ec2,
              namespace: phaseNamespace,
              prefix: `ev${i}`,
              scale: { n: s.n, m: s.m },
              boundMs: 2 * sweepPeriodMs + s.provisioningMs,
              audit,
              log,
            })
            // Last look with the bus still running; the audit waits out the Nodes' removal.
            return { fault, ledger, counts: await audit.count() }
          } finally {
            fault.stop()
            await bus.stop()
          }
        }),
      )

      const baseline = JSON.stringify(ledgers[0]?.ledger.checkpoints.map(countsOnly))
      const differing = ledgers.filter(
        (l) => JSON.stringify(l.ledger.checkpoints.map(countsOnly)) !== baseline,
      )
      if (differing.length > 0) log(`end states differ: ${differing.map((l) => l.fault.name)}`)
      const stats = ledgers.map((l) => l.fault.stats())
      const counts = sumCounts(ledgers.map((l) => l.counts))
      return {
        id: this.id,
        title: this.title,
        seed,
        runs: ledgers.length,
        faultsInjected: stats.reduce((sum, st) => sum + st.dropped + st.duplicated, 0),
        duplicates: counts.duplicates,
        orphans: counts.orphans,
        stuck: ledgers.reduce(
          (sum, l) => sum + l.ledger.checkpoints.filter((c) => !c.converged).length,
          0,
        ),
        // The audit's lost Machines, plus every phase whose checkpoints differ from the baseline.
        lost: counts.lost + differing.length,
        details: {
          phases: ledgers.map((l, i) => ({
            fault: l.fault.name,
            ...l.ledger,
            events: stats[i],
            audit: l.counts.breakdown,
          })),
        },
      }
    } finally {
      for (const audit of audits) await audit.stop()
      if (world) await deleteNamespaces(world.kube, extraNamespaces)
      await world?.stop()
      await env?.close()
    }
  },
}

function countsOnly(c: { step: string; machines: number; liveInstances: number }) {
  return { step: c.step, machines: c.machines, liveInstances: c.liveInstances }
}
