/**
 * @module What a user checks on an installed overlay, shared by the plain and jetstream e2e files:
 * each function is one scenario run with kubectl against the e2e cluster.
 */
import { expect } from 'vitest'
import type { E2eCluster } from '../harness/node/e2e-cluster'
import { machinePhases, podsOf, systemNamespace, until } from '../harness/node/overlay-checks'

function machine(namespace: string, name: string, provider: string): string {
  return JSON.stringify({
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: { name, namespace },
    spec: { providerSpec: { provider, value: {} } },
  })
}

/** kubectl's error when it fails, '' when it succeeds. */
async function refusal(cluster: E2eCluster, args: string[], input?: string): Promise<string> {
  try {
    await cluster.kubectl(args, input)
    return ''
  } catch (error) {
    return String(error)
  }
}

/** Each Deployment becomes Available with `replicas` Ready pods on the node under `serviceAccount`. */
export async function expectAvailable(
  cluster: E2eCluster,
  deployments: { name: string; replicas: number; serviceAccount: string }[],
): Promise<void> {
  await cluster.kubectl([
    'wait',
    '-n',
    systemNamespace,
    '--for=condition=Available',
    '--timeout=240s',
    ...deployments.map((d) => `deployment/${d.name}`),
  ])
  for (const d of deployments) {
    const pods = (await podsOf(cluster, d.name)).filter((p) => p.ready && !p.deleting)
    expect(pods).toHaveLength(d.replicas)
    for (const pod of pods) {
      expect(pod).toMatchObject({
        serviceAccountName: d.serviceAccount,
        nodeName: cluster.node.name,
      })
    }
  }
}

/** cert-manager issued the webhook's certificate and injected its CA into the registration. */
export async function expectCaInjected(cluster: E2eCluster): Promise<void> {
  const read = async () => ({
    caBundle: await cluster.kubectl([
      'get',
      'validatingwebhookconfiguration',
      'machine-api',
      '-o',
      'jsonpath={.webhooks[0].clientConfig.caBundle}',
    ]),
    issuedCa: await cluster.kubectl([
      'get',
      'secret',
      '-n',
      systemNamespace,
      'machine-api-webhook-tls',
      '-o',
      'jsonpath={.data.ca\\.crt}',
    ]),
  })
  await until(
    'the issued CA injected',
    read,
    (seen) => seen.issuedCa !== '' && seen.caBundle === seen.issuedCa,
    60_000,
  )
}

/** The in-cluster webhook refuses a Machine naming an unknown provider, with the field path. */
export async function expectBadMachineRefused(
  cluster: E2eCluster,
  namespace: string,
): Promise<void> {
  const error = await refusal(cluster, ['apply', '-f', '-'], machine(namespace, 'bad', 'nope'))
  expect(error).toMatch(/admission webhook "[^"]+" denied the request/)
  expect(error).toContain('spec.providerSpec.provider:')
}

/** A kwok MachineDeployment of 3 reaches Running, scales to 5 and back to 3, then is deleted. */
export async function scaleKwokDeployment(cluster: E2eCluster, namespace: string): Promise<void> {
  const labels = { 'e2e/md': 'pool' }
  const md = {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineDeployment',
    metadata: { name: 'pool', namespace },
    spec: {
      replicas: 3,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { providerSpec: { provider: 'kwok', value: {} }, nodeDeletionTimeout: '10s' },
      },
    },
  }
  await cluster.kubectl(['apply', '-f', '-'], JSON.stringify(md))
  const running = (n: number) => (phases: string[]) =>
    phases.length === n && phases.every((p) => p === 'Running')
  await until('3 Running Machines', () => machinePhases(cluster, namespace), running(3))
  await cluster.kubectl(['scale', '-n', namespace, 'machinedeployment/pool', '--replicas=5'])
  await until('5 Running Machines', () => machinePhases(cluster, namespace), running(5))
  await cluster.kubectl(['scale', '-n', namespace, 'machinedeployment/pool', '--replicas=3'])
  await until('3 Running Machines again', () => machinePhases(cluster, namespace), running(3))
  // Deleting it takes its Machines' Nodes too; only the real node is left for later pods.
  await cluster.kubectl(['delete', '-n', namespace, 'machinedeployment/pool'])
  await until(
    'the Machines gone',
    () => machinePhases(cluster, namespace),
    (phases) => phases.length === 0,
  )
  await until(
    'only the real node left',
    async () => (await cluster.kubectl(['get', 'nodes', '-o', 'name'])).trim().split('\n'),
    (nodes) => nodes.length === 1,
  )
}

/** A Job made from the sweep CronJob runs on the node, completes and logs `logged`. */
export async function runSweepJob(cluster: E2eCluster, logged: string): Promise<void> {
  await cluster.kubectl([
    'create',
    'job',
    '-n',
    systemNamespace,
    'sweep-now',
    '--from=cronjob/machine-api-sweep',
  ])
  await cluster.kubectl([
    'wait',
    '-n',
    systemNamespace,
    '--for=condition=Complete',
    '--timeout=180s',
    'job/sweep-now',
  ])
  const [pod] = await podsOf(cluster, 'machine-api-sweep')
  expect(pod?.nodeName).toBe(cluster.node.name)
  expect(await cluster.kubectl(['logs', '-n', systemNamespace, 'job/sweep-now'])).toContain(logged)
}

/** While a webhook pod is deleted and replaced, every admission call is still answered. */
export async function deleteWebhookPodWhileAdmitting(
  cluster: E2eCluster,
  namespace: string,
): Promise<void> {
  const [victim] = await podsOf(cluster, 'machine-api-webhook')
  if (!victim) throw new Error('no webhook pod')
  await cluster.kubectl(['delete', 'pod', '-n', systemNamespace, victim.name, '--wait=false'])
  const answers: string[] = []
  await until(
    'the webhook pod replaced',
    async () => {
      const probe = machine(namespace, 'probe', 'nope')
      answers.push(await refusal(cluster, ['create', '--dry-run=server', '-f', '-'], probe))
      return await podsOf(cluster, 'machine-api-webhook')
    },
    (pods) =>
      pods.length === 2 && pods.every((p) => p.ready && !p.deleting && p.name !== victim.name),
  )
  expect(answers.length).toBeGreaterThan(1)
  for (const answer of answers) expect(answer).toMatch(/denied the request/)
}
