/**
 * Proves the test control plane is the real thing: kwok keeps Nodes Ready, the scheduler places
 * Pods, KCM's disruption controller gates evictions, its garbage collector removes dependents and
 * its node-lifecycle controller notices a silent Node.
 */
import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  type KubeConfig,
  PolicyV1Api,
  type V1Pod,
} from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startExtraKwok } from '../../harness/controlplane'
import {
  ignoreNotFound,
  kubectl,
  testKubeConfig,
  testNamespace,
  uniqueName,
  waitFor,
} from '../../harness/kube'
import { kwokNode, readNodeReady } from '../../harness/nodes'

let kc: KubeConfig
let core: CoreV1Api
let apps: AppsV1Api
let policy: PolicyV1Api
const nodeNames = [uniqueName('smoke-node'), uniqueName('smoke-node')]

beforeAll(async () => {
  kc = testKubeConfig()
  core = kc.makeApiClient(CoreV1Api)
  apps = kc.makeApiClient(AppsV1Api)
  policy = kc.makeApiClient(PolicyV1Api)
  for (const name of nodeNames)
    await core.createNode({ body: kwokNode(name, { labels: { smoke: 'yes' } }) })
})

afterAll(async () => {
  for (const name of nodeNames) await core.deleteNode({ name }).catch(ignoreNotFound)
})

function runningPods(pods: V1Pod[]): V1Pod[] {
  return pods.filter((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp)
}

async function createDeployment(namespace: string, name: string, replicas: number): Promise<void> {
  await apps.createNamespacedDeployment({
    namespace,
    body: {
      metadata: { name },
      spec: {
        replicas,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: {
            nodeSelector: { smoke: 'yes' },
            containers: [{ name: 'app', image: 'registry.example/app:1' }],
          },
        },
      },
    },
  })
}

async function listAppPods(namespace: string, app: string): Promise<V1Pod[]> {
  return (await core.listNamespacedPod({ namespace, labelSelector: `app=${app}` })).items
}

describe('control plane', () => {
  it('reports the Kubernetes version it was built from through kubectl', async () => {
    const { stdout } = await kubectl(['get', '--raw', '/version'])
    expect(JSON.parse(stdout).gitVersion).toBe('v1.37.2')
  })

  it('keeps kwok-managed Nodes Ready', async () => {
    for (const name of nodeNames) {
      await waitFor(`node ${name} Ready`, async () => (await readNodeReady(core, name)) === 'True')
    }
  })

  it('schedules a Deployment onto the kwok Nodes and kwok reports its Pods Running', async () => {
    const namespace = await testNamespace(kc, 'smoke-sched')
    await createDeployment(namespace, 'web', 3)
    const pods = await waitFor('3 running pods', async () => {
      const running = runningPods(await listAppPods(namespace, 'web'))
      return running.length === 3 ? running : undefined
    })
    for (const pod of pods) expect(nodeNames).toContain(pod.spec?.nodeName)
  })

  it('refuses an eviction that a PodDisruptionBudget forbids (429), then allows it once the budget does', async () => {
    const namespace = await testNamespace(kc, 'smoke-pdb')
    await createDeployment(namespace, 'db', 2)
    const pods = await waitFor('2 running pods', async () => {
      const running = runningPods(await listAppPods(namespace, 'db'))
      return running.length === 2 ? running : undefined
    })
    await policy.createNamespacedPodDisruptionBudget({
      namespace,
      body: {
        metadata: { name: 'db' },
        spec: { minAvailable: 2, selector: { matchLabels: { app: 'db' } } },
      },
    })
    // The disruption controller must have computed the budget before the eviction means anything.
    await waitFor('PDB observed', async () => {
      const pdb = await policy.readNamespacedPodDisruptionBudget({ namespace, name: 'db' })
      return (
        pdb.status?.observedGeneration === pdb.metadata?.generation &&
        pdb.status?.currentHealthy === 2
      )
    })
    const victim = pods[0]?.metadata?.name ?? ''
    const evict = () =>
      core.createNamespacedPodEviction({
        namespace,
        name: victim,
        body: { metadata: { name: victim, namespace } },
      })
    const refusal = await evict().then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refusal).toBeInstanceOf(ApiException)
    expect((refusal as ApiException<unknown>).code).toBe(429)

    await policy.patchNamespacedPodDisruptionBudget({
      namespace,
      name: 'db',
      body: [{ op: 'replace', path: '/spec/minAvailable', value: 1 }],
    })
    await waitFor('eviction allowed', async () => {
      await evict()
      return true
    })
    await waitFor('evicted pod gone and replaced', async () => {
      const current = await listAppPods(namespace, 'db')
      const running = runningPods(current)
      return running.length === 2 && running.every((p) => p.metadata?.name !== victim) && running
    })
  })

  it('garbage-collects a dependent when its owner is deleted', async () => {
    const namespace = await testNamespace(kc, 'smoke-gc')
    const owner = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'owner' }, data: { a: '1' } },
    })
    await core.createNamespacedConfigMap({
      namespace,
      body: {
        metadata: {
          name: 'dependent',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata?.uid ?? '' },
          ],
        },
      },
    })
    await core.deleteNamespacedConfigMap({ namespace, name: 'owner' })
    await waitFor('dependent collected', async () => {
      try {
        await core.readNamespacedConfigMap({ namespace, name: 'dependent' })
        return false
      } catch (error) {
        ignoreNotFound(error)
        return true
      }
    })
  })

  it('marks a Node Ready=Unknown once its kubelet goes silent', async () => {
    const name = uniqueName('smoke-silent')
    const kubelet = startExtraKwok({
      kubeconfigPath: inject('kubeconfigPath'),
      binDir: inject('controlPlaneBinDir'),
      annotation: 'smoke.machine-api.dev/kubelet',
      value: name,
    })
    try {
      await core.createNode({
        body: { metadata: { name, annotations: { 'smoke.machine-api.dev/kubelet': name } } },
      })
      await waitFor(`node ${name} Ready`, async () => (await readNodeReady(core, name)) === 'True')
      await kubelet.stopAndClean()
      await waitFor(
        `node ${name} Ready=Unknown`,
        async () => (await readNodeReady(core, name)) === 'Unknown',
        { timeoutMs: 120_000, intervalMs: 1000 },
      )
      const node = await core.readNode({ name })
      const taints = node.spec?.taints?.map((t) => t.key) ?? []
      expect(taints).toContain('node.kubernetes.io/unreachable')
    } finally {
      await kubelet.stopAndClean()
      await core.deleteNode({ name }).catch(ignoreNotFound)
    }
  })
})
