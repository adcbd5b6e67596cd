/**
 * Deleting a Machine drains its Node through the Eviction API: PodDisruptionBudgets hold at every
 * observed instant, DaemonSet and mirror pods stay, a budget that never allows eviction blocks
 * only until nodeDrainTimeout, and lifecycle hooks hold the Machine in Deleting.
 */
import {
  AppsV1Api,
  CoreV1Api,
  type KubeConfig,
  PolicyV1Api,
  type V1Pod,
  Watch,
} from '@kubernetes/client-node'
import { describe, expect, it, onTestFinished } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { preDrainHookPrefix, preTerminateHookPrefix } from '../../../src/reconcile/machine/deletion'
import { ignoreNotFound, uniqueName, waitFor } from '../../harness/kube'
import { kwokNode } from '../../harness/nodes'
import {
  kwokMachine,
  machineCondition,
  machineDeps,
  readMachine,
  runMachineController,
  testProviders,
  useMachineTestApi,
} from './fixture'

const { api, namespace, kube } = useMachineTestApi('drain')
const core = () => api().kc.makeApiClient(CoreV1Api)

const running = (p: V1Pod) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp
const ready = (p: V1Pod) =>
  running(p) && (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')

/** A Machine whose Node carries `pool=<pool>`, Running and linked; returns its Node name. */
async function runningMachine(
  ns: string,
  name: string,
  pool: string,
  spec: Record<string, unknown> = {},
) {
  await kube().create(
    machineApiTypes.machine,
    kwokMachine(ns, name, { metadata: { labels: { pool } }, ...spec }),
  )
  const machine = await waitFor(`${name} Running`, async () => {
    const m = await readMachine(kube(), ns, name)
    return machineCondition(m, 'Ready')?.status === 'True' && m
  })
  return machine.status?.nodeRef?.name ?? ''
}

/** Spare Nodes in `pool`, cordoned until the test lets replacements land on them. */
async function spareNodes(pool: string, count: number): Promise<string[]> {
  const names = Array.from({ length: count }, () => uniqueName('spare'))
  for (const name of names) {
    const node = kwokNode(name, { labels: { pool } })
    await core().createNode({ body: { ...node, spec: { unschedulable: true } } })
    onTestFinished(async () => {
      await core().deleteNode({ name }).catch(ignoreNotFound)
    })
  }
  return names
}

async function uncordon(names: string[]): Promise<void> {
  for (const name of names) {
    await kube().mergePatch(
      { group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false },
      { name },
      {
        spec: { unschedulable: false },
      },
    )
  }
}

async function deployment(
  kc: KubeConfig,
  ns: string,
  name: string,
  replicas: number,
  pool: string,
) {
  await kc.makeApiClient(AppsV1Api).createNamespacedDeployment({
    namespace: ns,
    body: {
      metadata: { name },
      spec: {
        replicas,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: {
            nodeSelector: { pool },
            containers: [{ name: 'c', image: 'registry.example/app:1' }],
          },
        },
      },
    },
  })
}

async function podsOn(ns: string, nodeName: string): Promise<V1Pod[]> {
  return (
    await core().listNamespacedPod({ namespace: ns, fieldSelector: `spec.nodeName=${nodeName}` })
  ).items
}

/**
 * Watches the Deployment's pods from a listed starting point and reports the fewest ready ones
 * seen at any instant afterwards.
 */
async function watchReadyPods(
  kc: KubeConfig,
  ns: string,
  app: string,
): Promise<{ fewest: () => number; events: () => number }> {
  const listed = await core().listNamespacedPod({ namespace: ns, labelSelector: `app=${app}` })
  const state = new Map(listed.items.map((p) => [p.metadata?.name ?? '', ready(p)]))
  let min = [...state.values()].filter(Boolean).length
  let events = 0
  const request = await new Watch(kc).watch(
    `/api/v1/namespaces/${ns}/pods`,
    { labelSelector: `app=${app}`, resourceVersion: listed.metadata?.resourceVersion },
    (type: string, pod: V1Pod) => {
      events++
      const name = pod.metadata?.name ?? ''
      if (type === 'DELETED') state.delete(name)
      else state.set(name, ready(pod))
      min = Math.min(min, [...state.values()].filter(Boolean).length)
    },
    () => {},
  )
  onTestFinished(() => request.abort())
  return { fewest: () => min, events: () => events }
}

describe('Machine deletion drains its Node', () => {
  it('evicts what must go under a PDB, leaves DaemonSet and mirror pods, then deletes the Node', async () => {
    const ns = namespace()
    const kc = api().kc
    const pool = uniqueName('pool')
    await runMachineController(machineDeps(kube(), testProviders()), ns)
    const spares = await spareNodes(pool, 2)
    const hook = `${preTerminateHookPrefix}/inspect`
    const nodeName = await runningMachine(ns, 'worker', pool)
    await kube().mergePatch(
      machineApiTypes.machine,
      { namespace: ns, name: 'worker' },
      {
        metadata: { annotations: { [hook]: 'test' } },
      },
    )

    await deployment(kc, ns, 'app', 16, pool)
    await kc.makeApiClient(PolicyV1Api).createNamespacedPodDisruptionBudget({
      namespace: ns,
      body: {
        metadata: { name: 'app' },
        spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'app' } } },
      },
    })
    await kc.makeApiClient(AppsV1Api).createNamespacedDaemonSet({
      namespace: ns,
      body: {
        metadata: { name: 'agent' },
        spec: {
          selector: { matchLabels: { app: 'agent' } },
          template: {
            metadata: { labels: { app: 'agent' } },
            spec: {
              nodeSelector: { 'kubernetes.io/hostname': nodeName },
              containers: [{ name: 'c', image: 'registry.example/agent:1' }],
            },
          },
        },
      },
    })
    const bare = (
      name: string,
      extra: Partial<V1Pod['spec']> = {},
      annotations?: Record<string, string>,
    ) =>
      core().createNamespacedPod({
        namespace: ns,
        body: {
          metadata: { name, ...(annotations ? { annotations } : {}) },
          spec: { nodeName, containers: [{ name: 'c', image: 'registry.example/x:1' }], ...extra },
        },
      })
    await bare('scratch', { volumes: [{ name: 'tmp', emptyDir: {} }] })
    await bare('lonely')
    await bare('static-web', {}, { 'kubernetes.io/config.mirror': 'abc123' })
    await waitFor(
      '20 pods running on the Machine Node',
      async () => (await podsOn(ns, nodeName)).filter(running).length === 20,
      {
        timeoutMs: 90_000,
      },
    )
    await uncordon(spares)
    const readyPods = await watchReadyPods(kc, ns, 'app')

    await kube().delete(machineApiTypes.machine, { namespace: ns, name: 'worker' })
    const held = await waitFor(
      'drained and held by the pre-terminate hook',
      async () => {
        const m = await readMachine(kube(), ns, 'worker')
        return machineCondition(m, 'Deleting')?.reason === 'WaitingForPreTerminateHook' && m
      },
      { timeoutMs: 120_000 },
    )
    expect(machineCondition(held, 'Drained')).toMatchObject({
      status: 'True',
      reason: 'DrainSucceeded',
    })
    // What every pass did, kept until the Machine is gone (not only the last pass's message).
    const record = held.status?.deletion?.drain
    expect(record?.evicted).toEqual(expect.arrayContaining([`${ns}/scratch`, `${ns}/lonely`]))
    expect(record?.evictedCount).toBeGreaterThanOrEqual(18)
    expect(record?.warnings.map((w) => w.pod).sort()).toEqual([`${ns}/lonely`, `${ns}/scratch`])
    expect(record?.skipped).toEqual(
      expect.arrayContaining([
        { pod: `${ns}/static-web`, reason: 'mirror pod' },
        expect.objectContaining({ reason: 'DaemonSet pod' }),
      ]),
    )
    const left = (await podsOn(ns, nodeName)).filter((p) => !p.metadata?.deletionTimestamp)
    expect(left.map((p) => p.metadata?.labels?.app ?? p.metadata?.name).sort()).toEqual([
      'agent',
      'static-web',
    ])
    // 16 evictions and 16 replacements were observed, and the budget held at every instant.
    expect(readyPods.events()).toBeGreaterThan(32)
    expect(readyPods.fewest()).toBeGreaterThanOrEqual(15)
    const replacements = (
      await core().listNamespacedPod({ namespace: ns, labelSelector: 'app=app' })
    ).items
    expect(replacements.filter(running).every((p) => spares.includes(p.spec?.nodeName ?? ''))).toBe(
      true,
    )

    await kube().mergePatch(
      machineApiTypes.machine,
      { namespace: ns, name: 'worker' },
      {
        metadata: { annotations: { [hook]: null } },
      },
    )
    await waitFor('Machine and Node gone', async () => {
      const nodeGone = await core()
        .readNode({ name: nodeName })
        .then(
          () => false,
          () => true,
        )
      return nodeGone && (await readMachine(kube(), ns, 'worker')) === undefined
    })
  })

  it('waits on a budget that never allows eviction until nodeDrainTimeout, naming the budget', async () => {
    const ns = namespace()
    const kc = api().kc
    const pool = uniqueName('pool')
    await runMachineController(machineDeps(kube(), testProviders()), ns)
    await runningMachine(ns, 'stuck', pool, { nodeDrainTimeout: '6s' })
    await deployment(kc, ns, 'db', 2, pool)
    await kc.makeApiClient(PolicyV1Api).createNamespacedPodDisruptionBudget({
      namespace: ns,
      body: {
        metadata: { name: 'db-budget' },
        spec: { minAvailable: 2, selector: { matchLabels: { app: 'db' } } },
      },
    })
    await waitFor('db pods running', async () => {
      const pods = (await core().listNamespacedPod({ namespace: ns, labelSelector: 'app=db' }))
        .items
      return pods.filter(ready).length === 2
    })
    await waitFor('PDB computed', async () => {
      const pdb = await kc
        .makeApiClient(PolicyV1Api)
        .readNamespacedPodDisruptionBudget({ namespace: ns, name: 'db-budget' })
      return pdb.status?.currentHealthy === 2
    })

    await kube().delete(machineApiTypes.machine, { namespace: ns, name: 'stuck' })
    const blocked = await waitFor('drain blocked', async () => {
      const m = await readMachine(kube(), ns, 'stuck')
      return machineCondition(m, 'Deleting')?.reason === 'DrainingNode' && m
    })
    expect(machineCondition(blocked, 'Drained')?.message).toContain('db-budget')
    const refusal = await waitFor('an Event naming the budget', async () =>
      (await core().listNamespacedEvent({ namespace: ns })).items.find(
        (e) => e.involvedObject?.name === 'stuck' && e.reason === 'EvictionBlocked',
      ),
    )
    expect(refusal.type).toBe('Warning')
    expect(refusal.message).toContain(`PodDisruptionBudget ${ns}/db-budget`)
    await waitFor(
      'deletion proceeds after nodeDrainTimeout',
      async () => (await readMachine(kube(), ns, 'stuck')) === undefined,
      {
        timeoutMs: 60_000,
      },
    )
  })

  it('holds the Machine in Deleting while a pre-drain hook annotation is present', async () => {
    const ns = namespace()
    await runMachineController(machineDeps(kube(), testProviders()), ns)
    const hook = `${preDrainHookPrefix}/backup`
    await runningMachine(ns, 'hooked', uniqueName('pool'))
    await kube().mergePatch(
      machineApiTypes.machine,
      { namespace: ns, name: 'hooked' },
      {
        metadata: { annotations: { [hook]: 'ops' } },
      },
    )
    await kube().delete(machineApiTypes.machine, { namespace: ns, name: 'hooked' })
    const waiting = await waitFor('waiting for the hook', async () => {
      const m = await readMachine(kube(), ns, 'hooked')
      return machineCondition(m, 'Deleting')?.reason === 'WaitingForPreDrainHook' && m
    })
    expect(machineCondition(waiting, 'Deleting')?.message).toContain(hook)
    expect(waiting.status?.phase).toBe('Deleting')
    await kube().mergePatch(
      machineApiTypes.machine,
      { namespace: ns, name: 'hooked' },
      {
        metadata: { annotations: { [hook]: null } },
      },
    )
    await waitFor(
      'Machine gone',
      async () => (await readMachine(kube(), ns, 'hooked')) === undefined,
    )
  })
})
