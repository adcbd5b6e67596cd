/**
 * @module What a user checks on an installed overlay, shared by the plain and jetstream e2e files:
 * each function is one scenario run with kubectl against the e2e cluster.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
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
  expect(answers.length).toBeGreaterThan(0)
  for (const answer of answers) expect(answer).toMatch(/denied the request/)
}

/**
 * In every machine-api pod of the overlay the kubelet enforces what the manifests ask: uid and gid
 * 1000, a read-only root filesystem, no new privileges, no capabilities. Read from inside each
 * container (the image has node, no shell).
 */
export async function expectPodsRestricted(cluster: E2eCluster, apps: string[]): Promise<void> {
  const script = `
    const fs = require('node:fs')
    let write = 'written'
    try { fs.writeFileSync('/app/probe', 'x') } catch (e) { write = e.code }
    const status = fs.readFileSync('/proc/self/status', 'utf8')
    const field = (name) => new RegExp(name + ':\\\\s*(\\\\S+)').exec(status)[1]
    console.log(JSON.stringify({ uid: process.getuid(), gid: process.getgid(), write,
      noNewPrivs: field('NoNewPrivs'), capEff: field('CapEff') }))`
  for (const app of apps) {
    const [pod] = (await podsOf(cluster, app)).filter((p) => p.ready && !p.deleting)
    if (!pod) throw new Error(`no ready ${app} pod`)
    const out = await cluster.kubectl([
      'exec',
      '-n',
      systemNamespace,
      pod.name,
      '--',
      'node',
      '-e',
      script,
    ])
    expect({ app, ...JSON.parse(out) }).toEqual({
      app,
      uid: 1000,
      gid: 1000,
      write: 'EROFS',
      noNewPrivs: '1',
      capEff: '0000000000000000',
    })
  }
}

/** The kubelet refuses to start the image as root in a pod that says runAsNonRoot. */
export async function expectRootRefused(cluster: E2eCluster, namespace: string): Promise<void> {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'as-root', namespace },
    spec: {
      restartPolicy: 'Never',
      securityContext: { runAsNonRoot: true, runAsUser: 0 },
      containers: [
        { name: 'main', image: `${cluster.image.name}:${cluster.image.tag}`, args: ['-e', '1'] },
      ],
    },
  }
  await cluster.kubectl(['apply', '-f', '-'], JSON.stringify(pod))
  await until(
    'the kubelet refusing root',
    () =>
      cluster.kubectl([
        'get',
        'pod',
        '-n',
        namespace,
        'as-root',
        '-o',
        'jsonpath={.status.containerStatuses[0].state.waiting.message}',
      ]),
    (message) => /runAsUser breaks non-root policy/.test(message),
    60_000,
  )
  await cluster.kubectl(['delete', 'pod', '-n', namespace, 'as-root', '--wait=false'])
}

/** Nothing of a stopped node is left on the host: no process, mount, link or iptables chain. */
export function expectNodeGone(nodeDir: string, links: string[]): void {
  expect(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })).not.toContain(nodeDir)
  expect(readFileSync('/proc/mounts', 'utf8')).not.toContain(nodeDir)
  const present = execFileSync('ip', ['-o', 'link'], { encoding: 'utf8' })
  for (const link of links) expect(present).not.toContain(link)
  expect(execFileSync('iptables-save', { encoding: 'utf8' })).not.toMatch(/^:(KUBE|CNI)-/m)
}
