/**
 * The plain overlay installed as a user would (`kubectl apply -k`, the image set by `images:`) on a
 * cluster with a real node and cert-manager: what a user sees once it runs, the security context
 * the kubelet enforces on its pods, and a host left clean once the node stops.
 */
import { afterAll, beforeAll, describe, it } from 'vitest'
import { type E2eCluster, startE2eCluster } from '../harness/node/e2e-cluster'
import { installOverlay } from '../harness/node/install'
import { nodeNetwork } from '../harness/node/node-config'
import {
  deleteWebhookPodWhileAdmitting,
  expectAvailable,
  expectBadMachineRefused,
  expectCaInjected,
  expectNodeGone,
  expectPodsRestricted,
  expectRootRefused,
  runSweepJob,
  scaleKwokDeployment,
} from './overlay-scenarios'

let cluster: E2eCluster
const ns = 'e2e-plain'

beforeAll(async () => {
  cluster = await startE2eCluster({ certManager: true })
  await installOverlay(cluster, 'plain', [
    { kind: 'Deployment', name: 'machine-api-worker', container: 'worker' },
    { kind: 'CronJob', name: 'machine-api-sweep', container: 'sweep' },
  ])
  await cluster.kubectl(['create', 'namespace', ns])
}, 600_000)

afterAll(async () => {
  await cluster?.stop()
  if (cluster) expectNodeGone(cluster.node.dir, [nodeNetwork.bridge, nodeNetwork.hostLink])
}, 120_000)

describe('the plain overlay on a real node', () => {
  it('runs the webhook and worker under their own ServiceAccounts, the CA injected by cert-manager', async () => {
    await expectAvailable(cluster, [
      { name: 'machine-api-webhook', replicas: 2, serviceAccount: 'machine-api-webhook' },
      { name: 'machine-api-worker', replicas: 1, serviceAccount: 'machine-api-controller' },
    ])
    await expectCaInjected(cluster)
  })

  it('runs its pods as the manifests say (uid 1000, read-only root, no privileges), enforced by the kubelet', async () => {
    await expectPodsRestricted(cluster, ['machine-api-webhook', 'machine-api-worker'])
    await expectRootRefused(cluster, ns)
  })

  it('refuses a bad Machine through the in-cluster webhook, naming the field', async () => {
    await expectBadMachineRefused(cluster, ns)
  })

  it('brings a kwok MachineDeployment of 3 to Running, scales it to 5 and back, deletes it', async () => {
    await scaleKwokDeployment(cluster, ns)
  })

  it("runs the sweep CronJob's Job on the node, which logs a completed sweep", async () => {
    await runSweepJob(cluster, 'sweep done')
  })

  it('keeps answering admission while one webhook pod is deleted', async () => {
    await deleteWebhookPodWhileAdmitting(cluster, ns)
  })
})
