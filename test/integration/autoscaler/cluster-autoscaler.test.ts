/**
 * The real cluster-autoscaler 1.36.1 (clusterapi provider, CAPI_GROUP=machine-api.dev) against
 * machine-api with every controller running and the kwok provider, started as
 * docs/machine-sets.md says under the shipped `machine-api:cluster-autoscaler` role, with fast
 * scale-down settings. Each test looks at what a user would see: replicas, Machines, Nodes, where
 * Pods run, and the Events and log lines the autoscaler and machine-api leave.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { ANNOTATIONS } from '../../../src/api/group'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes } from '../../../src/kube/resource'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import type { MachineDeploymentObject } from '../../../src/reconcile/machine-deployment/machine-sets'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'
import {
  type ClusterAutoscaler,
  startClusterAutoscaler,
} from '../../harness/autoscaler/cluster-autoscaler'
import { kubectl, waitFor } from '../../harness/kube'
import { kubectlApply, useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { fullStackKube, startFullStack } from '../full-stack/fixture'
import { deploymentState, isRunningMachine } from '../full-stack/objects'
import { rolledOut } from '../machine-deployment/drive'
import { watchMachines } from '../machine-set/machine-watch'
import {
  allRunning,
  eventsWithReason,
  groupMachines,
  groupOf,
  kwokClass,
  nodeGroup,
  workload,
  workloadPods,
} from './node-groups'

const api = useMachineApi({
  providerSchemas: (name) => (name === 'kwok' ? kwokProviderSpecSchema() : undefined),
})
const ns = useFileNamespace(() => api().kc, 'cluster-autoscaler')
let kube: KubeClient
let autoscaler: ClusterAutoscaler

beforeAll(async () => {
  kube = fullStackKube(api().kc)
  for (const [name, cpu, memory] of [
    ['one-cpu', '1', '2Gi'],
    ['two-cpu', '2', '4Gi'],
    ['four-cpu', '4', '8Gi'],
  ] as const) {
    await kube.create(
      machineApiTypes.machineClass,
      kwokClass(ns(), name, { cpu, memory, pods: '20' }),
    )
  }
  autoscaler = await startClusterAutoscaler({ namespace: ns() })
})
afterAll(async () => {
  await autoscaler?.stop()
  kube?.close()
})

/** The test's timeout: a scale-up, a scale-down and the cleanup each take seconds to tens of seconds. */
const slow = { timeout: 240_000 }

async function deployment(name: string): Promise<MachineDeploymentObject> {
  return (await deploymentState(kube, ns(), name)).md
}

/** Applies workloads, and deletes them (and waits for their Pods) when the test ends. */
async function runWorkloads(...objects: ReturnType<typeof workload>[]): Promise<void> {
  onTestFinished(async () => {
    const names = objects.map((o) => o.metadata?.name ?? '')
    await kubectl(['delete', 'deployment', '-n', ns(), '--ignore-not-found', ...names])
    await waitFor('the workloads gone', async () => {
      const pods = await Promise.all(names.map((n) => workloadPods(kube, ns(), n)))
      return pods.every((p) => p.length === 0)
    })
  })
  await kubectlApply(objects)
}

async function runningGroup(name: string, count: number): Promise<MachineObject[]> {
  return await waitFor(
    `${count} Running Machines in ${name}`,
    async () => {
      const machines = await groupMachines(kube, ns(), name)
      return machines.length === count && machines.every(isRunningMachine) && machines
    },
    { timeoutMs: 120_000 },
  )
}

async function runningPods(name: string, count: number) {
  return await waitFor(
    `${count} Running Pods of ${name}`,
    async () => {
      const pods = await workloadPods(kube, ns(), name)
      return allRunning(pods, count) && pods
    },
    { timeoutMs: 120_000 },
  )
}

async function replicasBecome(name: string, replicas: number): Promise<void> {
  await waitFor(
    `${name} at ${replicas} replicas`,
    async () => (await deployment(name)).spec.replicas === replicas,
    { timeoutMs: 120_000 },
  )
}

const nodeOf = (machine: MachineObject) => machine.status?.nodeRef?.name

describe('cluster-autoscaler 1.36.1 against machine-api', () => {
  it(
    'raises a MachineDeployment for Pods that fit no Node; the new Machines become Nodes the Pods run on',
    slow,
    async () => {
      await startFullStack(kube, ns())
      await kube.create(
        machineApiTypes.machineDeployment,
        nodeGroup(ns(), 'up', { className: 'two-cpu', replicas: 1, min: 1, max: 4 }),
      )
      await runningGroup('up', 1)

      // 1.5 of a Node's 2 CPUs each: one Pod fits the Node there is, two fit nowhere.
      await runWorkloads(workload(ns(), 'up', { replicas: 3, cpu: '1500m' }))
      await replicasBecome('up', 3)
      const machines = await runningGroup('up', 3)
      const pods = await runningPods('up', 3)

      expect(new Set(pods.map((p) => p.spec?.nodeName))).toEqual(new Set(machines.map(nodeOf)))
      const triggered = await eventsWithReason(kube, ns(), 'Pod', 'TriggeredScaleUp')
      // One scale-up of 1->3, or two if the Pods went pending in different loops.
      expect(triggered.map((e) => e.message)).toContainEqual(
        expect.stringMatching(new RegExp(`MachineDeployment/${ns()}/up [12]->3 \\(max: 4\\)`)),
      )
      expect((await deployment('up')).spec.replicas).toBe(3)
    },
  )

  it(
    'scales down by exactly the Machines it marked once their Pods are gone, each drained before it goes',
    slow,
    async () => {
      await startFullStack(kube, ns())
      await kube.create(
        machineApiTypes.machineDeployment,
        nodeGroup(ns(), 'down', { className: 'two-cpu', replicas: 3, min: 1, max: 4 }),
      )
      const before = await runningGroup('down', 3)
      await runWorkloads(workload(ns(), 'down', { replicas: 3, cpu: '1500m' }))
      await runningPods('down', 3)

      const marked = new Set<string>()
      const watch = await watchMachines(kube, ns(), (machines) => {
        for (const m of machines) {
          if (m.metadata.annotations?.[ANNOTATIONS.deleteMachine]) marked.add(m.metadata.name)
        }
        return undefined
      })
      onTestFinished(() => watch.stop())
      // Two Pods go; the Node of the one left is 75% requested, above the 50% the autoscaler
      // removes, so exactly the two emptied Nodes are unneeded.
      await kubectl(['scale', 'deployment', 'down', '-n', ns(), '--replicas=1'])
      await replicasBecome('down', 1)
      const [survivor, ...others] = await runningGroup('down', 1)
      const [pod] = await runningPods('down', 1)

      expect(others).toEqual([])
      expect(nodeOf(survivor as MachineObject)).toBe(pod?.spec?.nodeName)
      const removed = before.filter((m) => m.metadata.name !== survivor?.metadata.name)
      expect([...marked].sort()).toEqual(removed.map((m) => m.metadata.name).sort())
      const drained = await eventsWithReason(kube, ns(), 'Machine', 'NodeDrained')
      for (const machine of removed) {
        expect(drained).toContainEqual(
          expect.objectContaining({
            involvedObject: expect.objectContaining({ name: machine.metadata.name }),
            message: `Drained Node ${nodeOf(machine)}`,
          }),
        )
      }
    },
  )

  it(
    "grows a MachineDeployment from zero on its MachineClass's capacity, and on template labels under the prefixes it reads",
    slow,
    async () => {
      await startFullStack(kube, ns())
      const sizeLabel = 'size.node.cluster.x-k8s.io/class'
      for (const [name, className] of [
        ['small', 'one-cpu'],
        ['large', 'four-cpu'],
      ] as const) {
        await kube.create(
          machineApiTypes.machineDeployment,
          nodeGroup(ns(), name, {
            className,
            replicas: 0,
            min: 0,
            max: 2,
            nodeLabels: { [sizeLabel]: name, 'example.com/size': name },
          }),
        )
      }
      // Nothing here writes a capacity annotation: the controllers copy each class's capacity.
      await waitFor('both groups sized from their classes', async () => {
        const [small, large] = [await deployment('small'), await deployment('large')]
        const cpu = (md: MachineDeploymentObject) =>
          md.metadata.annotations?.['capacity.cluster-autoscaler.kubernetes.io/cpu']
        return cpu(small) === '1' && cpu(large) === '4'
      })

      // Two CPUs fit only a large Machine: the large group grows, the small one does not.
      await runWorkloads(workload(ns(), 'big', { replicas: 1, cpu: '2' }))
      await replicasBecome('large', 1)
      const [large] = await runningGroup('large', 1)
      const [big] = await runningPods('big', 1)
      expect(big?.spec?.nodeName).toBe(nodeOf(large as MachineObject))
      expect((await deployment('small')).spec.replicas).toBe(0)

      // A plain label reaches the Nodes but not the template of a group of zero: no scale-up.
      await runWorkloads(
        workload(ns(), 'plain', {
          replicas: 1,
          cpu: '500m',
          nodeSelector: { 'example.com/size': 'small' },
        }),
      )
      const notTriggered = await waitFor(
        'the autoscaler to give up on the plain selector',
        async () =>
          (await eventsWithReason(kube, ns(), 'Pod', 'NotTriggerScaleUp')).find((e) =>
            e.involvedObject?.name?.startsWith('plain-'),
          ),
      )
      expect(notTriggered.message).toMatch(/didn't match Pod's node affinity\/selector/)
      expect((await deployment('small')).spec.replicas).toBe(0)

      // A label under *.node.cluster.x-k8s.io reaches it: the small group grows, and both Pods
      // run on its Node (which carries the plain label too).
      await runWorkloads(
        workload(ns(), 'managed', {
          replicas: 1,
          cpu: '500m',
          nodeSelector: { [sizeLabel]: 'small' },
        }),
      )
      await replicasBecome('small', 1)
      const [small] = await runningGroup('small', 1)
      const [plain] = await runningPods('plain', 1)
      const [managed] = await runningPods('managed', 1)
      expect(plain?.spec?.nodeName).toBe(nodeOf(small as MachineObject))
      expect(managed?.spec?.nodeName).toBe(nodeOf(small as MachineObject))
    },
  )

  it(
    'keeps the Nodes of a MachineDeployment while it rolls out, and scales it down after',
    slow,
    async () => {
      await startFullStack(kube, ns())
      // Two empty Nodes, held by the minimum until the rollout runs.
      await kube.create(
        machineApiTypes.machineDeployment,
        nodeGroup(ns(), 'roll', { className: 'two-cpu', replicas: 2, min: 2, max: 4 }),
      )
      const old = await runningGroup('roll', 2)
      // A template naming a class that does not exist yet: its Machine waits for the class, so the
      // old set keeps its replicas, which is what the autoscaler calls rolling out.
      await kube.mergePatch(
        machineApiTypes.machineDeployment,
        { namespace: ns(), name: 'roll' },
        { spec: { template: { spec: { classRef: { name: 'roll-next' } } } } },
      )
      await waitFor('the rollout to start', async () => {
        const { sets } = await deploymentState(kube, ns(), 'roll')
        return sets.length === 2 && (await groupMachines(kube, ns(), 'roll')).length === 3
      })

      // Every instant of the window, not one snapshot at its end: an old Machine the autoscaler
      // marked, or that went away and came back, is what the test is about.
      const oldUids = new Set(old.map((m) => m.metadata.uid))
      const watch = await watchMachines(kube, ns(), (machines) => {
        const present = machines.filter((m) => oldUids.has(m.metadata.uid))
        const leaving = present.filter(
          (m) =>
            m.metadata.deletionTimestamp || m.metadata.annotations?.[ANNOTATIONS.deleteMachine],
        )
        if (present.length < oldUids.size) return `${present.length} of the old Machines left`
        return leaving.length > 0 ? `${leaving.map((m) => m.metadata.name)} leaving` : undefined
      })
      const mark = autoscaler.mark()
      await kube.mergePatch(
        machineApiTypes.machineDeployment,
        { namespace: ns(), name: 'roll' },
        { metadata: { annotations: { [ANNOTATIONS.autoscalerMinSize]: '1' } } },
      )
      const skipped = await autoscaler.waitForLog(
        'the rollout skip',
        /Node (\S+) will be skipped as it is currently under rollout/,
        { mark },
      )
      expect(old.map(nodeOf)).toContain(/Node (\S+) will/.exec(skipped)?.[1])
      // Longer than --scale-down-unneeded-time (5 s at 2 s loops) with both Nodes empty and the
      // minimum at 1: only the rollout keeps them.
      await autoscaler.afterLoops(5)
      await watch.stop()
      expect(watch.violations).toEqual([])
      const nodes = await Promise.all(
        old.map((m) => kube.get(coreTypes.node, { name: nodeOf(m) ?? '' })),
      )
      expect(nodes.map((n) => n?.metadata?.name)).toEqual(old.map(nodeOf))
      expect((await deployment('roll')).spec.replicas).toBe(2)

      // The class appears, the rollout finishes, and the autoscaler takes the group to its minimum.
      await kube.create(
        machineApiTypes.machineClass,
        kwokClass(ns(), 'roll-next', { cpu: '2', memory: '4Gi', pods: '20' }),
      )
      await waitFor('the rollout to finish', async () => rolledOut(await deployment('roll')), {
        timeoutMs: 120_000,
      })
      await replicasBecome('roll', 1)
      await runningGroup('roll', 1)
    },
  )

  it(
    'grows a group from zero for a Pod selecting kubernetes.io/os and /arch, which then runs there with no add and remove loop',
    slow,
    async () => {
      await startFullStack(kube, ns())
      await kube.create(
        machineApiTypes.machineDeployment,
        nodeGroup(ns(), 'linux', { className: 'two-cpu', replicas: 0, min: 0, max: 2 }),
      )
      const watch = await watchMachines(kube, ns(), (machines) => {
        const group = machines.filter((m) => groupOf(m) === 'linux')
        return group.length > 1 ? `${group.length} Machines for one Pod` : undefined
      })
      onTestFinished(() => watch.stop())
      await runWorkloads(
        workload(ns(), 'os', {
          replicas: 1,
          cpu: '500m',
          nodeSelector: { 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' },
        }),
      )
      await replicasBecome('linux', 1)
      const [machine] = await runningGroup('linux', 1)
      const [pod] = await runningPods('os', 1)
      expect(pod?.spec?.nodeName).toBe(nodeOf(machine as MachineObject))

      // Longer than --scale-down-unneeded-time: an empty Node would be gone by now.
      await autoscaler.afterLoops(5)
      expect((await groupMachines(kube, ns(), 'linux')).map((m) => m.metadata.uid)).toEqual([
        machine?.metadata.uid,
      ])
      expect((await deployment('linux')).spec.replicas).toBe(1)
      expect(watch.violations).toEqual([])
      expect(watch.counts.DELETED ?? 0).toBe(0)
    },
  )
})
