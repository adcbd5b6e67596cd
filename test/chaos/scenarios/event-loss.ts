/**
 * @module event-loss: the same drive (a MachineSet scaled 0 -> N -> M -> 0, a lone Machine created
 * and deleted) three times, with the in-process bus's watch events passed through, all dropped
 * (the sweep alone must converge), and each delivered five times with seeded delays (duplicated and
 * out of order). Every phase must reach the same checkpoints, launch one instance per Machine and
 * create no extra Machine, and leave no instance or Node behind.
 */
import { uniqueName, waitFor } from '../../harness/kube'
import { auditFleet } from '../lib/audit'
import { type AwsWorld, startAwsWorld } from '../lib/aws-world'
import { type ChaosEnvironment, startChaosEnvironment } from '../lib/environment'
import { startEventBus } from '../lib/event-bus'
import { drivePhase, leftoverNodes } from '../lib/event-drive'
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
              log,
            })
            return { fault, ledger }
          } finally {
            fault.stop()
            await bus.stop()
          }
        }),
      )

      const audits = await Promise.all(
        names.map((name) => auditFleet({ kube: ready.kube, ec2: ready.ec2, namespace: name })),
      )
      // The simulator removes the Node of a terminated instance on its next pass.
      const nodesLeftNow = async () => {
        const counts = await Promise.all(
          names.map((name) => leftoverNodes(ready.ec2, ready.kube, name)),
        )
        return counts.reduce((a, b) => a + b, 0)
      }
      const nodesLeft = await waitFor(
        'no Node of a gone instance',
        async () => ((await nodesLeftNow()) === 0 ? 0 : false),
        { timeoutMs: 2 * sweepPeriodMs },
      ).catch(nodesLeftNow)
      const wanted = s.n + 1
      const baseline = JSON.stringify(ledgers[0]?.ledger.checkpoints.map(countsOnly))
      const differing = ledgers.filter(
        (l) => JSON.stringify(l.ledger.checkpoints.map(countsOnly)) !== baseline,
      )
      if (differing.length > 0) log(`end states differ: ${differing.map((l) => l.fault.name)}`)
      const stats = ledgers.map((l) => l.fault.stats())
      return {
        id: this.id,
        title: this.title,
        seed,
        runs: ledgers.length,
        faultsInjected: stats.reduce((sum, st) => sum + st.dropped + st.duplicated, 0),
        // Extra instances for one Machine, and Machines beyond the ones the drive asked for
        // (counted from EC2 and from every Machine the watches reported, dropped events included).
        duplicates: ledgers.reduce(
          (sum, l, i) =>
            sum +
            (l.ledger.instancesLaunched - l.ledger.machinesLaunched) +
            Math.max(0, l.ledger.machinesLaunched - wanted, (stats[i]?.machines ?? 0) - wanted),
          0,
        ),
        orphans: audits.reduce((sum, a) => sum + a.orphanInstances, 0) + nodesLeft,
        stuck: ledgers.reduce(
          (sum, l) => sum + l.ledger.checkpoints.filter((c) => !c.converged).length,
          0,
        ),
        // A Machine the drive asked for that never got an instance, or a phase whose counts differ.
        lost:
          ledgers.reduce((sum, l) => sum + Math.max(0, wanted - l.ledger.machinesLaunched), 0) +
          differing.length,
        details: {
          phases: ledgers.map((l, i) => ({ fault: l.fault.name, ...l.ledger, events: stats[i] })),
          audits,
          nodesLeft,
        },
      }
    } finally {
      if (world) await deleteNamespaces(world.kube, extraNamespaces)
      await world?.stop()
      await env?.close()
    }
  },
}

function countsOnly(c: { step: string; machines: number; liveInstances: number }) {
  return { step: c.step, machines: c.machines, liveInstances: c.liveInstances }
}
