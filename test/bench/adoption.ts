/**
 * @module adoption: N unmanaged EC2 instances on moto, each with its Node (registered as the
 * kubelet would: named by the private DNS name, the providerID set), taken over by the bundled
 * `machine-api adopt --from instances` while the worker process (dist/worker.js, in-process bus)
 * reconciles; and before it, in the same run and a world of its own (see inWorld), a MachineSet
 * of N Machines created fresh on the same class, launched through the worker and its EC2 limiter,
 * the EC2 node simulator playing their kubelets. For each: the time from the command (or the set's create) to N Machines
 * Running, apiserver requests per Machine (every client: the command, the worker, the
 * simulator's Node registration and its 500 ms lists) and EC2 requests per Machine (the command's
 * and the worker's, counted at the proxy in front of moto).
 */
import { tmpdir } from 'node:os'
import { type EC2Client, RunInstancesCommand } from '@aws-sdk/client-ec2'
import { LABELS } from '../../src/api/group'
import { machineApiTypes } from '../../src/api/resource-types'
import { nodeForInstance } from '../../src/dev/ec2-node-simulator'
import type { KubeClient } from '../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../src/kube/resource'
import { mapConcurrently } from '../../src/pool'
import { adoptInWorld, runAdoptProcess } from '../chaos/lib/adopt-process'
import { type AwsWorld, chaosClassName, chaosRegion, startAwsWorld } from '../chaos/lib/aws-world'
import { createMachineSet, machinesOf, waitForRunning } from '../chaos/lib/cloud-fleet'
import { startChaosEnvironment } from '../chaos/lib/environment'
import { type WorkerProcess, workerProcess } from '../chaos/lib/worker-process'
import type { ControlPlane } from '../harness/controlplane'
import { waitFor } from '../harness/kube'
import type { FaultProxy } from '../harness/moto/fault-proxy'
import { scrapeRequestCounts } from './lib/apiserver-metrics'
import { diffCounts, totalOf } from './lib/apiserver-metrics-text'
import type { Bench } from './lib/bench'
import { measurement } from './lib/measurement'
import { round } from './lib/stats'

const tag = { Key: 'bench-fleet', Value: 'legacy' }

/** Launches `n` untagged-by-machine-api instances, 100 per call, straight to moto. */
async function launchUnmanaged(ec2: EC2Client, amiId: string, n: number) {
  const instances = []
  for (let left = n; left > 0; left -= 100) {
    const count = Math.min(100, left)
    const out = await ec2.send(
      new RunInstancesCommand({
        ImageId: amiId,
        InstanceType: 't3.micro',
        MinCount: count,
        MaxCount: count,
        TagSpecifications: [{ ResourceType: 'instance', Tags: [tag] }],
      }),
    )
    instances.push(...(out.Instances ?? []))
  }
  return instances
}

/** Registers each instance's Node as its kubelet would; not the simulator's (it would delete them). */
async function registerNodes(
  kube: KubeClient,
  instances: Awaited<ReturnType<typeof launchUnmanaged>>,
) {
  await mapConcurrently(instances, 16, async (instance) => {
    const node = nodeForInstance(instance, chaosRegion)
    if (!node?.metadata) return
    delete node.metadata.labels?.[LABELS.simulatedBy]
    await kube.create(coreTypes.node, { apiVersion: 'v1', kind: 'Node', ...node } as KubeObject)
  })
}

const readyMachines = async (kube: KubeClient, namespace: string, n: number) =>
  (
    await kube.list<KubeObject & { status?: { phase?: string } }>(machineApiTypes.machine, {
      namespace,
    })
  ).items.filter((m) => m.status?.phase === 'Running').length >= n

/** What one phase measured: time to N Running, apiserver and EC2 requests by kind. */
interface PhaseResult {
  seconds: number
  api: Record<string, number>
  ec2: Record<string, number>
}

/**
 * A world of its own for one phase (moto, the counting proxy, the node simulator, a worker for
 * the namespace), stopped after it: at N = 1,000 the fresh set launched 50 Machines in 9 minutes
 * while the adopted 1,000 and their instances shared its moto and worker, because every adopted
 * Machine's instance reads and the simulator's passes over 2,000 instances held moto at a core.
 * The phase's Machines keep their finalizers (nothing terminates 1,000 instances at the EC2
 * limiter's pace only to tidy up; the bench's control plane is thrown away).
 */
async function inWorld(
  env: Awaited<ReturnType<typeof startChaosEnvironment>>,
  namespace: string,
  n: number,
  phase: (world: AwsWorld & { proxy: FaultProxy }) => Promise<PhaseResult>,
): Promise<PhaseResult> {
  const world = await startAwsWorld({
    kc: env.kc,
    kubeconfigPath: env.kubeconfigPath,
    namespace,
    faults: true,
    nodePeriodMs: n >= 1000 ? 2000 : 500,
  })
  let worker: WorkerProcess | undefined
  try {
    const { proxy } = world
    if (!proxy) throw new Error('the adoption bench counts EC2 calls at the fault proxy')
    worker = workerProcess({
      env: { ...world.workerEnv, BUS: 'in-process' },
      logDir: tmpdir(),
      name: namespace,
    })
    await worker.start()
    return await phase({ ...world, proxy })
  } finally {
    await worker?.stop()
    await world.stop()
  }
}

/** N Machines of a MachineSet created fresh on the standard class: the limit. */
async function createFresh(
  world: AwsWorld & { proxy: FaultProxy },
  controlPlane: ControlPlane,
  n: number,
): Promise<PhaseResult> {
  const { kube, proxy, namespace } = world
  proxy.clear()
  const before = await scrapeRequestCounts(controlPlane)
  const started = performance.now()
  await createMachineSet(
    kube,
    { namespace, name: 'fresh' },
    { className: chaosClassName, replicas: n },
  )
  if (!(await waitForRunning(kube, { namespace, set: 'fresh', count: n }, 3_600_000))) {
    throw new Error(`${n} fresh Machines did not reach Running`)
  }
  const seconds = (performance.now() - started) / 1000
  const api = diffCounts(before, await scrapeRequestCounts(controlPlane))
  const running = await machinesOf(kube, namespace, 'fresh')
  if (running.length !== n) throw new Error(`${running.length} fresh Machines for ${n}`)
  return { seconds, api, ec2: proxy.counts() }
}

/** N unmanaged instances with their Nodes, adopted in place by the bundled command. */
async function adoptUnmanaged(
  world: AwsWorld & { proxy: FaultProxy },
  controlPlane: ControlPlane,
  env: Awaited<ReturnType<typeof startChaosEnvironment>>,
  n: number,
  log: (message: string) => void,
): Promise<PhaseResult> {
  const { kube, proxy, namespace } = world
  const standard = await kube.get<
    KubeObject & { spec?: { providerSpec?: { ami?: { id?: string } } } }
  >(machineApiTypes.machineClass, { namespace, name: chaosClassName })
  const instances = await launchUnmanaged(world.ec2, standard?.spec?.providerSpec?.ami?.id ?? '', n)
  await registerNodes(kube, instances)
  log(`${instances.length} unmanaged instances with their Nodes; adopting`)
  proxy.clear()
  const before = await scrapeRequestCounts(controlPlane)
  const started = performance.now()
  const target = adoptInWorld({
    namespace,
    kubeconfigPath: env.kubeconfigPath,
    ec2Endpoint: proxy.endpoint,
    wait: '30m',
  })
  const adopted = await runAdoptProcess(
    [
      ...['--from', 'instances', '--tag', `${tag.Key}=${tag.Value}`, '--name-prefix', 'legacy'],
      ...target.args,
    ],
    target.env,
  )
  if (adopted.type !== 'exited' || adopted.exitCode !== 0) {
    throw new Error(`adopt failed: ${JSON.stringify(adopted).slice(0, 2000)}`)
  }
  await waitFor('every adopted Machine Running', () => readyMachines(kube, namespace, n), {
    timeoutMs: 600_000,
    intervalMs: 1000,
  })
  const seconds = (performance.now() - started) / 1000
  return {
    seconds,
    api: diffCounts(before, await scrapeRequestCounts(controlPlane)),
    ec2: proxy.counts(),
  }
}

export const adoptionBench: Bench = {
  id: 'adoption',
  title:
    'adopt N running instances in place vs create N Machines fresh: time, apiserver and EC2 requests per Machine',
  async run({ options, controlPlane, log }) {
    const n = options.quick ? 100 : 1000
    const env = await startChaosEnvironment({ shared: controlPlane })
    const suffix = Date.now() % 100_000
    try {
      const fresh = await inWorld(env, `bench-fresh-${suffix}`, n, (w) =>
        createFresh(w, controlPlane, n),
      )
      log(`created ${n} fresh in ${round(fresh.seconds, 1)} s; EC2 ${JSON.stringify(fresh.ec2)}`)
      const adopt = await inWorld(env, `bench-adopt-${suffix}`, n, (w) =>
        adoptUnmanaged(w, controlPlane, env, n, log),
      )
      log(`adopted ${n} in ${round(adopt.seconds, 1)} s; EC2 ${JSON.stringify(adopt.ec2)}`)
      const sum = (counts: Record<string, number>) =>
        Object.values(counts).reduce((a, b) => a + b, 0)
      const limit = (value: number) => ({ name: `${n} Machines created fresh`, value })
      return {
        id: 'adoption',
        title: adoptionBench.title,
        measurements: [
          measurement(
            `adopt ${n}: command -> all Running`,
            's',
            [adopt.seconds],
            limit(round(fresh.seconds, 1)),
          ),
          measurement(
            `adopt ${n}: apiserver requests per Machine`,
            'req',
            [totalOf(adopt.api) / n],
            limit(round(totalOf(fresh.api) / n, 2)),
          ),
          measurement(
            `adopt ${n}: EC2 requests per Machine`,
            'req',
            [sum(adopt.ec2) / n],
            limit(round(sum(fresh.ec2) / n, 2)),
          ),
          measurement(
            `adopt ${n}: RunInstances + TerminateInstances`,
            'calls',
            [(adopt.ec2.RunInstances ?? 0) + (adopt.ec2.TerminateInstances ?? 0)],
            limit(fresh.ec2.RunInstances ?? 0),
          ),
        ],
        details: {
          machines: n,
          adoptApi: adopt.api,
          freshApi: fresh.api,
          adoptEc2: adopt.ec2,
          freshEc2: fresh.ec2,
        },
      }
    } finally {
      await env.close()
    }
  },
}
