/**
 * The jetstream overlay installed as a user would, with nats-server (the harness's build, on the
 * node's host address) as the bus named by the overlay's NATS_URL setting, and 2 worker replicas
 * sharing the work queue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type NatsServer, startNatsServer } from '../harness/nats/nats-server'
import { type E2eCluster, startE2eCluster } from '../harness/node/e2e-cluster'
import { installOverlay } from '../harness/node/install'
import { nodeNetwork } from '../harness/node/node-config'
import { podsOf, systemNamespace } from '../harness/node/overlay-checks'
import {
  deleteWebhookPodWhileAdmitting,
  expectAvailable,
  expectBadMachineRefused,
  expectCaInjected,
  runSweepJob,
  scaleKwokDeployment,
} from './overlay-scenarios'

let cluster: E2eCluster
let nats: NatsServer
const ns = 'e2e-jetstream'

beforeAll(async () => {
  cluster = await startE2eCluster({ certManager: true })
  nats = await startNatsServer(nodeNetwork.hostAddress)
  await installOverlay(
    cluster,
    'jetstream',
    [
      { kind: 'Deployment', name: 'machine-api-worker', container: 'worker' },
      { kind: 'Deployment', name: 'machine-api-watch-bridge', container: 'worker' },
      { kind: 'CronJob', name: 'machine-api-sweep', container: 'sweep' },
    ],
    {
      configMapGenerator: [
        {
          name: 'machine-api-jetstream',
          namespace: systemNamespace,
          behavior: 'merge',
          literals: [`NATS_URL=${nats.url}`],
        },
      ],
    },
  )
  await cluster.kubectl(['create', 'namespace', ns])
}, 600_000)

afterAll(async () => {
  await cluster?.stop()
  await nats?.stop()
}, 120_000)

/** machine_api_reconcile_duration_seconds_count summed over kinds, from the pod's /metrics. */
async function reconciles(pod: string): Promise<number> {
  const metrics = await cluster.kubectl([
    'get',
    '--raw',
    `/api/v1/namespaces/${systemNamespace}/pods/${pod}:8080/proxy/metrics`,
  ])
  return metrics
    .split('\n')
    .filter((line) => line.startsWith('machine_api_reconcile_duration_seconds_count'))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0)
}

describe('the jetstream overlay on a real node', () => {
  it('runs the webhook, 2 workers and the watch bridge under their own ServiceAccounts, the CA injected', async () => {
    await expectAvailable(cluster, [
      { name: 'machine-api-webhook', replicas: 2, serviceAccount: 'machine-api-webhook' },
      { name: 'machine-api-worker', replicas: 2, serviceAccount: 'machine-api-controller' },
      { name: 'machine-api-watch-bridge', replicas: 1, serviceAccount: 'machine-api-controller' },
    ])
    await expectCaInjected(cluster)
  })

  it('refuses a bad Machine through the in-cluster webhook, naming the field', async () => {
    await expectBadMachineRefused(cluster, ns)
  })

  it('brings a kwok MachineDeployment of 3 to Running, scales it to 5 and back with both workers reconciling, deletes it', async () => {
    await scaleKwokDeployment(cluster, ns)
    const workers = await podsOf(cluster, 'machine-api-worker')
    expect(workers).toHaveLength(2)
    for (const worker of workers) expect(await reconciles(worker.name)).toBeGreaterThan(0)
  })

  it("runs the sweep CronJob's Job on the node, which publishes every key", async () => {
    await runSweepJob(cluster, 'sweep done')
  })

  it('keeps answering admission while one webhook pod is deleted', async () => {
    await deleteWebhookPodWhileAdmitting(cluster, ns)
  })
})
