/**
 * @module Chaos scenario "drift": a MachineDeployment of aws Machines (moto) with a disruption
 * budget for reason Drift smaller than its maxSurge and maxUnavailable sees its MachineClass
 * change (another instance type: a Drift rollout) while its controllers (every controller of the
 * worker, on the in-process bus inside this process) lose a seeded share of their watch events and are stopped
 * and started again at seeded moments (queued keys and timers lost; the sweep and the fresh
 * watches' lists must recover). Every Machine must be replaced exactly once and the deployment
 * return to its replicas, built from the changed class, with no duplicate, orphan or lost Machine or instance;
 * the most Machines observed unavailable at once is reported and must never exceed the budget
 * (a rollout that does is counted as stuck: it did not converge within its bound).
 */
import { machineApiTypes } from '../../../src/api/resource-types'
import { uniqueName, waitFor } from '../../harness/kube'
import { type RunAudit, startAudit } from '../lib/audit'
import { type AvailabilityMonitor, monitorAvailability } from '../lib/availability-monitor'
import { type AwsWorld, chaosClassName, startAwsWorld } from '../lib/aws-world'
import { isRunning, machinesOf, waitForNoMachines, waitForRunning } from '../lib/cloud-fleet'
import { type ChaosEnvironment, startChaosEnvironment } from '../lib/environment'
import { type EventBus, startEventBus } from '../lib/event-bus'
import { dropShare } from '../lib/event-faults'
import { groupLabel } from '../lib/machine-ledger'
import { seededRandom } from '../lib/random'
import {
  type Scenario,
  type ScenarioOptions,
  type ScenarioReport,
  stopwatch,
} from '../lib/scenario'

const sizes = {
  short: { machines: 3, budget: 1, kills: 1, dropShare: 0.3, sweepSeconds: 4, convergeMs: 150_000 },
  full: { machines: 12, budget: 2, kills: 4, dropShare: 0.3, sweepSeconds: 8, convergeMs: 480_000 },
}
const group = 'drift'
const newType = 't3.small'

async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const size = sizes[options.size]
  const random = seededRandom(options.seed)
  const namespace = uniqueName('chaos-drift')
  const since = stopwatch()
  const fault = dropShare({ random, share: size.dropShare })
  let env: ChaosEnvironment | undefined
  let world: AwsWorld | undefined
  let bus: EventBus | undefined
  let audit: RunAudit | undefined
  let monitor: AvailabilityMonitor | undefined
  try {
    env = await startChaosEnvironment({ shared: options.shared })
    world = await startAwsWorld({ kc: env.kc, kubeconfigPath: env.kubeconfigPath, namespace })
    const { kube } = world
    const ready = { kc: env.kc, env: world.workerEnv }
    const startBus = () =>
      startEventBus({
        ...ready,
        namespace,
        sweepPeriodMs: size.sweepSeconds * 1000,
        interceptChanges: fault.intercept,
      })
    bus = await startBus()
    audit = startAudit({ kube, ec2: world.ec2, namespace })
    await audit.ready
    audit.intents.want(group, size.machines)
    const labels = { [groupLabel]: group }
    await kube.create(machineApiTypes.machineDeployment, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'MachineDeployment',
      metadata: { namespace, name: group },
      spec: {
        replicas: size.machines,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { classRef: { name: chaosClassName }, nodeDeletionTimeout: '30s' },
        },
        // The budget, not the strategy, is what bounds the rollout.
        strategy: {
          type: 'RollingUpdate',
          rollingUpdate: { maxSurge: '50%', maxUnavailable: '50%' },
        },
        disruption: { budgets: [{ machines: size.budget, reasons: ['Drift'] }] },
      },
    })
    const up = await waitForRunning(
      kube,
      { namespace, set: group, count: size.machines },
      size.convergeMs,
    )
    options.log(`${size.machines} Running: ${up} at ${since()} s`)

    const before = new Set((await machinesOf(kube, namespace, group)).map((m) => m.metadata?.uid))
    monitor = monitorAvailability(kube, { namespace, group, replicas: size.machines })
    audit.intents.replace(group, size.machines)
    const standard = await kube.get<{ spec: { providerSpec: Record<string, unknown> } }>(
      machineApiTypes.machineClass,
      { namespace, name: chaosClassName },
    )
    await kube.mergePatch(
      machineApiTypes.machineClass,
      { namespace, name: chaosClassName },
      { spec: { providerSpec: { ...standard?.spec.providerSpec, instanceType: newType } } },
    )
    options.log(`class ${chaosClassName} changed to ${newType} at ${since()} s`)
    const kills: number[] = []
    for (let k = 0; k < size.kills; k++) {
      await new Promise((resolve) => setTimeout(resolve, random.int(1000, 10_000)))
      await bus.stop()
      kills.push(since())
      bus = await startBus()
    }
    options.log(`controllers stopped and restarted at ${kills.join(', ')} s`)

    const converged = await waitFor(
      'every Machine replaced by one built from the changed class',
      async () => {
        const now = await machinesOf(kube, namespace, group)
        return (
          now.length === size.machines &&
          now.every(isRunning) &&
          now.every((m) => !before.has(m.metadata?.uid))
        )
      },
      { timeoutMs: size.convergeMs, intervalMs: 1000 },
    )
      .then(() => true)
      .catch(() => false)
    const rolledOutSeconds = since()
    await monitor.stop()
    const maxima = monitor.maxima()
    options.log(
      `converged ${converged} at ${since()} s; most unavailable at once ${maxima.unavailable}, most in replacement ${maxima.inReplacement} (budget ${size.budget}, ${maxima.looks} looks)`,
    )
    const fleet = await audit.checkpoint()

    audit.intents.want(group, 0)
    await kube.delete(machineApiTypes.machineDeployment, { namespace, name: group })
    const emptied = await waitForNoMachines(kube, namespace, size.convergeMs)
    const counts = await audit.count()
    const events = fault.stats()
    options.log(`deleted everything by ${since()} s: ${JSON.stringify(counts)}`)
    const overBudget = maxima.unavailable > size.budget
    return {
      id: driftScenario.id,
      title: driftScenario.title,
      seed: options.seed,
      runs: size.machines,
      faultsInjected: events.dropped + kills.length,
      duplicates: counts.duplicates,
      orphans: counts.orphans,
      stuck:
        fleet.notRunning.length +
        fleet.wrongCount.length +
        (converged ? 0 : 1) +
        (emptied ? 0 : 1) +
        (overBudget ? 1 : 0),
      lost: counts.lost,
      details: {
        machines: size.machines,
        budget: size.budget,
        maxUnavailable: maxima.unavailable,
        maxInReplacement: maxima.inReplacement,
        looks: maxima.looks,
        events,
        kills,
        rolledOutSeconds,
        audit: counts.breakdown,
        notRunning: fleet.notRunning,
      },
    }
  } finally {
    await monitor?.stop()
    fault.stop()
    await bus?.stop()
    await audit?.stop()
    await world?.stop()
    await env?.close()
  }
}

export const driftScenario: Scenario = {
  id: 'drift',
  title:
    'drift: a class change rolled under a disruption budget while events are lost and controllers restart',
  // About 50 s even at its short size; npm test proves the rollout bound and the budgets in
  // full-stack/class-drift and machine-deployment/budgets.
  fullOnly: true,
  run,
}
