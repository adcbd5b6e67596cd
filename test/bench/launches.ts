/**
 * @module launches: a MachineSet of N aws Machines 0 -> N Running on moto behind EC2's request
 * budget (the fault proxy's throttling model, throttle.ts), first with launch groups (the
 * default), then, as the limit measured in the same run on the same control plane, with the set
 * annotated `machine-api.dev/launch-groups: "false"` (one RunInstances per Machine). Reported:
 * time to N Running, RunInstances and mutating calls per Machine, RequestLimitExceeded answered
 * by the model, and Machines whose conditions ever showed it.
 */
import { tmpdir } from 'node:os'
import { ANNOTATIONS } from '../../src/api/group'
import { machineApiTypes } from '../../src/api/resource-types'
import { chaosClassName, startAwsWorld } from '../chaos/lib/aws-world'
import { type FleetMachine, isRunning, machinesOf } from '../chaos/lib/cloud-fleet'
import { startChaosEnvironment } from '../chaos/lib/environment'
import { groupLabel } from '../chaos/lib/machine-ledger'
import { workerProcess } from '../chaos/lib/worker-process'
import { waitFor } from '../harness/kube'
import { ec2Budget, type FaultProxy, throttledCalls } from '../harness/moto/fault-proxy'
import type { Bench } from './lib/bench'
import { measurement } from './lib/measurement'
import { round } from './lib/stats'

const mutating = (action: string) => !action.startsWith('Describe')

interface Run {
  seconds: number
  runInstances: number
  mutatingCalls: number
  throttled: number
  /** Machines whose conditions named RequestLimitExceeded or Throttled at some look. */
  throttledMachines: number
}

const showsThrottling = (m: FleetMachine) =>
  (m.status?.conditions ?? []).some(
    (c) => /RequestLimitExceeded/.test(c.message ?? '') || c.reason === 'Throttled',
  )

export const launchesBench: Bench = {
  id: 'launches',
  title:
    'aws 0 -> N Running under EC2 request budget: launch groups vs one RunInstances per Machine',
  async run({ options, controlPlane, log }) {
    const n = options.quick ? 100 : Number(process.env.BENCH_LAUNCHES ?? 1000)
    const env = await startChaosEnvironment({ shared: controlPlane })
    const namespace = `bench-launches-${Date.now() % 100_000}`
    const world = await startAwsWorld({
      kc: env.kc,
      kubeconfigPath: env.kubeconfigPath,
      namespace,
      faults: true,
    })
    const proxy = world.proxy as FaultProxy
    const worker = workerProcess({
      env: { ...world.workerEnv, BUS: 'in-process' },
      logDir: tmpdir(),
      name: namespace,
    })
    const { kube } = world
    /** One set 0 -> n Running; then scaled to 0 and gone, so the next starts from nothing. */
    const launch = async (set: string, grouped: boolean): Promise<Run> => {
      proxy.clear()
      proxy.throttle(ec2Budget)
      const labels = { [groupLabel]: set }
      const started = Date.now()
      await kube.create(machineApiTypes.machineSet, {
        apiVersion: 'machine-api.dev/v1beta1',
        kind: 'MachineSet',
        metadata: {
          namespace,
          name: set,
          ...(grouped ? {} : { annotations: { [ANNOTATIONS.launchGroups]: 'false' } }),
        },
        spec: {
          replicas: n,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: { classRef: { name: chaosClassName }, nodeDeletionTimeout: '30s' },
          },
        },
      })
      const throttledMachines = new Set<string>()
      await waitFor(
        `${n} Running Machines of ${set}`,
        async () => {
          const machines = await machinesOf(kube, namespace, set)
          for (const m of machines)
            if (showsThrottling(m)) throttledMachines.add(m.metadata?.uid ?? '')
          return machines.length === n && machines.every(isRunning)
        },
        { timeoutMs: 1_800_000, intervalMs: 1000 },
      )
      const seconds = (Date.now() - started) / 1000
      const counts = proxy.counts()
      const injected = proxy.injected()
      const run: Run = {
        seconds,
        runInstances: counts.RunInstances ?? 0,
        mutatingCalls: Object.entries(counts)
          .filter(([action]) => mutating(action))
          .reduce((sum, [, c]) => sum + c, 0),
        throttled: throttledCalls(injected),
        throttledMachines: throttledMachines.size,
      }
      log(`${set}: ${JSON.stringify({ ...run, counts, injected })}`)
      await kube.delete(machineApiTypes.machineSet, { namespace, name: set })
      await waitFor(
        `every Machine of ${set} gone`,
        async () => (await machinesOf(kube, namespace, set)).length === 0,
        { timeoutMs: 1_800_000, intervalMs: 2000 },
      )
      return run
    }
    try {
      await worker.start()
      const grouped = await launch('grouped', true)
      const alone = await launch('alone', false)
      const perMachine = (calls: number) => calls / n
      const limit = (value: number) => ({ name: 'launch groups off', value })
      return {
        id: 'launches',
        title: launchesBench.title,
        measurements: [
          measurement(`0 -> ${n} Running`, 's', [grouped.seconds], limit(alone.seconds)),
          measurement(
            `RunInstances per Machine, N=${n}`,
            'calls',
            [perMachine(grouped.runInstances)],
            limit(perMachine(alone.runInstances)),
          ),
          measurement(
            `mutating EC2 calls per Machine, N=${n}`,
            'calls',
            [perMachine(grouped.mutatingCalls)],
            limit(perMachine(alone.mutatingCalls)),
          ),
          measurement(
            `RequestLimitExceeded answered, N=${n}`,
            'answers',
            [grouped.throttled],
            limit(alone.throttled),
          ),
          measurement(
            `Machines whose conditions showed RequestLimitExceeded, N=${n}`,
            'Machines',
            [grouped.throttledMachines],
            limit(alone.throttledMachines),
          ),
        ],
        details: {
          machines: n,
          grouped: { ...grouped, seconds: round(grouped.seconds, 1) },
          alone: { ...alone, seconds: round(alone.seconds, 1) },
        },
      }
    } finally {
      await worker.stop().catch(() => {})
      await world.stop()
      await env.close()
    }
  },
}
