/**
 * @module adoption: N unmanaged EC2 instances on moto, each with its Node (registered as the
 * kubelet would: named by the private DNS name, the providerID set), taken over by the bundled
 * `machine-api adopt --from instances` while the worker process (dist/worker.js, in-process bus)
 * reconciles; then, in the same run and namespace, a MachineSet of N Machines created fresh on the
 * same class, launched through the worker and its EC2 limiter, the EC2 node simulator playing
 * their kubelets. For each: the time from the command (or the set's create) to N Machines
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
import { chaosClassName, chaosRegion, startAwsWorld } from '../chaos/lib/aws-world'
import { createMachineSet, machinesOf, waitForRunning } from '../chaos/lib/cloud-fleet'
import { startChaosEnvironment } from '../chaos/lib/environment'
import { type WorkerProcess, workerProcess } from '../chaos/lib/worker-process'
import { waitFor } from '../harness/kube'
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

export const adoptionBench: Bench = {
  id: 'adoption',
  title:
    'adopt N running instances in place vs create N Machines fresh: time, apiserver and EC2 requests per Machine',
  async run({ options, controlPlane, log }) {
    const n = options.quick ? 100 : 1000
    const env = await startChaosEnvironment({ shared: controlPlane })
    const namespace = `bench-adopt-${Date.now() % 100_000}`
    const world = await startAwsWorld({
      kc: env.kc,
      kubeconfigPath: env.kubeconfigPath,
      namespace,
      faults: true,
      // At 2N instances and Nodes a 500 ms pass (every instance described, every Node listed)
      // holds moto and the apiserver busy enough to starve the fresh set's launches.
      nodePeriodMs: n >= 1000 ? 5000 : 500,
    })
    let worker: WorkerProcess | undefined
    try {
      const { kube, proxy } = world
      if (!proxy) throw new Error('the adoption bench counts EC2 calls at the fault proxy')
      worker = workerProcess({
        env: { ...world.workerEnv, BUS: 'in-process' },
        logDir: tmpdir(),
        name: namespace,
      })
      await worker.start()
      const standard = await kube.get<
        KubeObject & { spec?: { providerSpec?: { ami?: { id?: string } } } }
      >(machineApiTypes.machineClass, { namespace, name: chaosClassName })
      const instances = await launchUnmanaged(
        world.ec2,
        standard?.spec?.providerSpec?.ami?.id ?? '',
        n,
      )
      await registerNodes(kube, instances)
      log(`${instances.length} unmanaged instances with their Nodes; adopting`)

      proxy.clear()
      let before = await scrapeRequestCounts(controlPlane)
      let started = performance.now()
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
      const adoptSeconds = (performance.now() - started) / 1000
      const adoptApi = diffCounts(before, await scrapeRequestCounts(controlPlane))
      const adoptEc2 = proxy.counts()
      log(`adopted ${n} in ${round(adoptSeconds, 1)} s; EC2 ${JSON.stringify(adoptEc2)}`)

      proxy.clear()
      before = await scrapeRequestCounts(controlPlane)
      started = performance.now()
      await createMachineSet(
        kube,
        { namespace, name: 'fresh' },
        { className: chaosClassName, replicas: n },
      )
      if (!(await waitForRunning(kube, { namespace, set: 'fresh', count: n }, 3_600_000))) {
        throw new Error(`${n} fresh Machines did not reach Running`)
      }
      const freshSeconds = (performance.now() - started) / 1000
      const freshApi = diffCounts(before, await scrapeRequestCounts(controlPlane))
      const freshEc2 = proxy.counts()
      const fresh = await machinesOf(kube, namespace, 'fresh')
      log(
        `created ${fresh.length} fresh in ${round(freshSeconds, 1)} s; EC2 ${JSON.stringify(freshEc2)}`,
      )

      const sum = (counts: Record<string, number>) =>
        Object.values(counts).reduce((a, b) => a + b, 0)
      const fresh1 = { name: `${n} Machines created fresh`, value: 0 }
      return {
        id: 'adoption',
        title: adoptionBench.title,
        measurements: [
          measurement(`adopt ${n}: command -> all Running`, 's', [adoptSeconds], {
            ...fresh1,
            value: round(freshSeconds, 1),
          }),
          measurement(
            `adopt ${n}: apiserver requests per Machine`,
            'req',
            [totalOf(adoptApi) / n],
            {
              ...fresh1,
              value: round(totalOf(freshApi) / n, 2),
            },
          ),
          measurement(`adopt ${n}: EC2 requests per Machine`, 'req', [sum(adoptEc2) / n], {
            ...fresh1,
            value: round(sum(freshEc2) / n, 2),
          }),
          measurement(
            `adopt ${n}: RunInstances + TerminateInstances`,
            'calls',
            [(adoptEc2.RunInstances ?? 0) + (adoptEc2.TerminateInstances ?? 0)],
            { ...fresh1, value: freshEc2.RunInstances ?? 0 },
          ),
        ],
        details: { machines: n, adoptApi, freshApi, adoptEc2, freshEc2 },
      }
    } finally {
      // The Machines keep their finalizers: the bench's control plane is thrown away with them,
      // and terminating 2N instances at the EC2 limiter's pace would only measure the limiter.
      await worker?.stop()
      await world.stop()
      await env.close()
    }
  },
}
