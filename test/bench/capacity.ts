/**
 * @module capacity (issue 28): a MachineSet of a MachineClass with three instance types over three
 * zones (nine offerings) scaled 0 -> N aws Machines on moto, timed until all N are Running (the
 * ec2-node-simulator plays each instance's kubelet), with two thirds of the offerings without
 * capacity (each zone keeps one type, a different one per zone: misses injected by the fault
 * proxy) against the same run with every offering available; and the RunInstances requests per
 * Machine of each. The worker runs as a process (dist/worker.js, every controller, concurrency 8)
 * as in the chaos scenarios. The set is deleted (and waited for) between runs, untimed; the class's
 * memory of misses (default TTL 3m) carries over between runs with misses, as it would in a
 * cluster. One run of each whatever --runs says: 200 aws Machines on moto take about 8 minutes on
 * the 2-core VM.
 */
import { tmpdir } from 'node:os'
import { machineApiTypes } from '../../src/api/resource-types'
import { type AwsWorld, startAwsWorld } from '../chaos/lib/aws-world'
import { createMachineSet, waitForNoMachines, waitForRunning } from '../chaos/lib/cloud-fleet'
import { startChaosEnvironment } from '../chaos/lib/environment'
import {
  createFlexClass,
  flexTypes,
  type OfferingFaults,
  startOfferingFaults,
} from '../chaos/lib/offering-faults'
import { workerProcess } from '../chaos/lib/worker-process'
import type { Bench, BenchEnv, BenchReport } from './lib/bench'
import { measurement } from './lib/measurement'
import { round } from './lib/stats'

const className = 'flex'

/** Two thirds out: zone i keeps only type i (zone a t3.micro, b t3.small, c t3.medium). */
function twoThirdsOut(faults: OfferingFaults): string[] {
  return faults.zones.flatMap((zone, z) =>
    flexTypes.filter((_t, t) => t !== z % flexTypes.length).map((t) => `${t} ${zone}`),
  )
}

/** One 0 -> n run: seconds to n Running and RunInstances requests per Machine. */
async function scaleUp(world: AwsWorld, n: number, name: string) {
  const { kube, proxy, namespace } = world
  const before = proxy?.counts().RunInstances ?? 0
  const started = performance.now()
  await createMachineSet(kube, { namespace, name }, { className, replicas: n })
  const ok = await waitForRunning(kube, { namespace, set: name, count: n }, 1_800_000)
  if (!ok) throw new Error(`${name}: ${n} Machines not Running within 30 minutes`)
  const seconds = (performance.now() - started) / 1000
  const runInstances = ((proxy?.counts().RunInstances ?? 0) - before) / n
  await kube.delete(machineApiTypes.machineSet, { namespace, name })
  if (!(await waitForNoMachines(kube, namespace, 600_000))) throw new Error('Machines left')
  return { seconds, runInstances }
}

async function run(env: BenchEnv): Promise<BenchReport> {
  const n = env.options.quick ? 30 : 100
  const chaosEnv = await startChaosEnvironment({
    shared: {
      kubeconfigPath: env.controlPlane.kubeconfigPath,
      kubectlPath: env.controlPlane.kubectlPath,
    },
  })
  const namespace = 'bench-capacity'
  const world = await startAwsWorld({
    kc: chaosEnv.kc,
    kubeconfigPath: chaosEnv.kubeconfigPath,
    namespace,
    faults: true,
  })
  const worker = workerProcess({ env: world.workerEnv, logDir: tmpdir(), name: namespace })
  try {
    if (!world.proxy) throw new Error('the fault proxy did not start')
    await createFlexClass(world.kube, { namespace, name: className }, '3m')
    const faults = await startOfferingFaults(world.proxy, world.ec2)
    const out = twoThirdsOut(faults)
    await worker.start()
    faults.set([])
    const available = await scaleUp(world, n, 'available')
    env.log(`all offerings: ${round(available.seconds, 1)} s`)
    faults.set(out)
    const scarce = await scaleUp(world, n, 'scarce')
    env.log(`two thirds out: ${round(scarce.seconds, 1)} s`)
    return {
      id: capacityBench.id,
      title: capacityBench.title,
      measurements: [
        measurement(
          `MachineSet 0 -> ${n} Running (aws on moto), 6 of 9 offerings without capacity`,
          's',
          [scarce.seconds],
          { name: 'every offering available', value: available.seconds },
        ),
        measurement(
          'RunInstances requests per Machine, 6 of 9 offerings without capacity',
          'requests',
          [scarce.runInstances],
          { name: 'every offering available', value: available.runInstances },
        ),
      ],
      details: { machines: n, unavailable: out, available, scarce, misses: faults.misses() },
    }
  } finally {
    await worker.stop()
    await world.stop()
    await chaosEnv.close()
  }
}

export const capacityBench: Bench = {
  id: 'capacity',
  title: 'MachineSet 0 -> 100 on aws with two thirds of the offerings without capacity',
  run,
}
