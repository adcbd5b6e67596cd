/**
 * `npm run dev`: the whole system on one machine. A real control plane (etcd, kube-apiserver, KCM,
 * scheduler, kwok), moto's EC2 and SQS server (with the EC2 notice queue the worker polls), the webhook server over TLS with CRDs and webhook
 * configurations installed (and cluster-autoscaler's role, infra/rbac/cluster-autoscaler.yaml, for
 * running the autoscaler against it as docs/machine-sets.md says), the reconcile worker on the in-process bus with its sweep timer, and
 * a node simulator playing the kubelet of every moto instance. Creates an example namespace and
 * prints a live table of Machines until Ctrl-C.
 *
 * Prints `KUBECONFIG=<path>`, `KUBECTL=<path>`, (aws) `EC2_ENDPOINT=<url>` and
 * `EC2_NOTICES_QUEUE_URL=<url>`, and (when MACHINE_API_AUTOSCALER names a built one, as under
 * `npm test`) `CLUSTER_AUTOSCALER=<path>` lines: scripts rely on them. The session file
 * (src/dev/session.ts) tells `machine-api dev interrupt` where the demo is.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { DescribeImagesCommand, EC2Client } from '@aws-sdk/client-ec2'
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs'
import { KubeConfig } from '@kubernetes/client-node'
import { parse } from 'yaml'
import { machineApiTypes } from '../src/api/resource-types'
import { controllerCatalog } from '../src/cli/controller-catalog'
import { startWorker } from '../src/cli/entry/worker'
import { parseRuntimeSettings } from '../src/cli/runtime-settings'
import { createDeps } from '../src/deps'
import { applyDemoObjects } from '../src/dev/apply-objects'
import { startEc2NodeSimulator } from '../src/dev/ec2-node-simulator'
import { demoNamespace, demoObjects } from '../src/dev/examples'
import { installMachineApi } from '../src/dev/install-api'
import { formatMachineTable } from '../src/dev/machine-table'
import { writeDevSession } from '../src/dev/session'
import type { KubeObject } from '../src/kube/resource'
import { createLogger } from '../src/observability/logger'
import { createDefaultProviders } from '../src/providers/default-registry'
import { builtInProviderSpecSchemas } from '../src/providers/schemas'
import { createClaimHolder, processSelf } from '../src/reconcile/machine/claim-holder'
import { controlPlaneBinDir, startControlPlane } from '../test/harness/controlplane'
import { freePort } from '../test/harness/controlplane/free-port'
import { startMotoServer } from '../test/harness/moto/moto-server'
import { startTestWebhookServer } from '../test/harness/webhook-server'

const usage = `Usage: npm run dev -- [--provider aws|kwok] [--kubeconfig PATH]

  --provider aws    machines are EC2 instances on a local moto server (default)
  --provider kwok   machines are simulated Nodes only (no cloud at all)
  --kubeconfig P    use an existing cluster instead of starting one (its apiserver must reach
                    127.0.0.1, where the webhook server listens)
  --in-cluster      run the shipped image and the plain overlay on a real local node instead
                    (scripts/dev-in-cluster.ts; needs root)
`
const { values } = parseArgs({
  options: {
    provider: { type: 'string', default: 'aws' },
    kubeconfig: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
})
if (values.help) {
  console.log(usage)
  process.exit(0)
}
const provider = values.provider
if (provider !== 'aws' && provider !== 'kwok') {
  console.error(`--provider must be aws or kwok, got ${provider}\n\n${usage}`)
  process.exit(2)
}

const stops: Array<() => Promise<unknown> | unknown> = []
let stopping = false
// Children are unref'd so a crash never hangs on them; this timer keeps the demo in the foreground.
const keepAlive = setInterval(() => {}, 60_000)
async function shutdown(signal: string): Promise<void> {
  if (stopping) return
  stopping = true
  console.log(`${signal}: stopping`)
  for (const stop of stops.reverse()) {
    await Promise.resolve()
      .then(stop)
      .catch((error: unknown) => console.error(`while stopping: ${String(error)}`))
  }
  clearInterval(keepAlive)
  process.exit(0)
}
// Registered before anything starts: a Ctrl-C at any moment stops what was started so far.
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))
const started = <T>(value: T, stop: (value: T) => Promise<unknown> | unknown): T => {
  stops.push(() => stop(value))
  if (stopping) void shutdown('stop requested during start')
  return value
}

let kubeconfigPath = values.kubeconfig
let kubectlPath = 'kubectl'
if (!kubeconfigPath) {
  const controlPlane = started(await startControlPlane(), (cp) => cp.stop())
  kubeconfigPath = controlPlane.kubeconfigPath
  kubectlPath = controlPlane.kubectlPath
} else {
  kubectlPath = `${controlPlaneBinDir()}/kubectl`
}
console.log(`KUBECONFIG=${kubeconfigPath}`)
console.log(`KUBECTL=${kubectlPath}`)
process.env.KUBECONFIG = kubeconfigPath

const moto = provider === 'aws' ? started(await startMotoServer(), (m) => m.stop()) : undefined
if (moto) console.log(`EC2_ENDPOINT=${moto.endpoint}`)
const region = 'eu-west-1'
let queueUrl: string | undefined
if (moto) {
  // The queue EventBridge would feed; `machine-api dev interrupt` sends notices to it.
  const sqs = new SQSClient({
    region,
    endpoint: moto.endpoint,
    credentials: { accessKeyId: 'demo', secretAccessKey: 'demo' },
  })
  queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: 'machine-api-notices' }))).QueueUrl
  sqs.destroy()
  console.log(`EC2_NOTICES_QUEUE_URL=${queueUrl}`)
  // The notice source uses the SDK's default chain, as deployed; moto takes any keys.
  process.env.AWS_ACCESS_KEY_ID ??= 'demo'
  process.env.AWS_SECRET_ACCESS_KEY ??= 'demo'
}

const log = createLogger({ name: 'machine-api-dev', level: process.env.LOG_LEVEL ?? 'warn' })
const deps = started(createDeps('machine-api-dev', { log }), (d) => d.close())
const kubeConfig = new KubeConfig()
kubeConfig.loadFromFile(kubeconfigPath)
const webhook = started(
  await startTestWebhookServer({
    providerSchemas: builtInProviderSpecSchemas,
    kubeConfig,
    logger: log,
  }),
  (w) => w.stop(),
)
await installMachineApi(deps.kube, {
  url: webhook.url,
  caBundle: webhook.caBundle,
  name: 'machine-api-dev',
})
const autoscalerRole = new URL('../infra/rbac/cluster-autoscaler.yaml', import.meta.url)
await applyDemoObjects(deps.kube, [parse(readFileSync(autoscalerRole, 'utf8')) as KubeObject])
if (process.env.MACHINE_API_AUTOSCALER) {
  console.log(`CLUSTER_AUTOSCALER=${process.env.MACHINE_API_AUTOSCALER}`)
} else {
  // The demo runs without it, so `npm run dev` does not build it (about 12 minutes cold).
  console.log('cluster-autoscaler: not built; `npm run autoscaler:build` prints its path')
}

const env = {
  ...process.env,
  ...(moto ? { AWS_EC2_ENDPOINT: moto.endpoint, AWS_REGION: region } : {}),
  ...(moto && queueUrl ? { EC2_NOTICES_QUEUE_URL: queueUrl, AWS_SQS_ENDPOINT: moto.endpoint } : {}),
}
const providers = started(createDefaultProviders(env), (p) => p.close())
const settings = parseRuntimeSettings(
  {},
  {
    ...process.env,
    PORT: String(await freePort()),
    SWEEP_PERIOD_SECONDS: '30',
  },
)
started(
  await startWorker(
    deps,
    settings,
    controllerCatalog({ providers, claimHolder: createClaimHolder(processSelf(env)) }),
    env,
  ),
  (w) => w.stop(),
)

let amiId: string | undefined
if (moto) {
  const ec2 = started(
    new EC2Client({
      region: 'eu-west-1',
      endpoint: moto.endpoint,
      credentials: { accessKeyId: 'demo', secretAccessKey: 'demo' },
    }),
    (c) => c.destroy(),
  )
  const images = await ec2.send(new DescribeImagesCommand({ Owners: ['amazon'] }))
  amiId = images.Images?.find((i) => i.RootDeviceName)?.ImageId
  started(startEc2NodeSimulator({ ec2, kube: deps.kube, log }), (stop) => stop())
}
await applyDemoObjects(deps.kube, demoObjects({ provider, ...(amiId ? { amiId } : {}) }))
console.log(
  `demo: namespace ${demoNamespace} has a ${provider} MachineClass, MachineDeployment "workers" (3) and a MachineHealthCheck`,
)
console.log(
  `try: "$KUBECTL" --kubeconfig "$KUBECONFIG" -n ${demoNamespace} get machines,machinesets,machinedeployments`,
)
started(
  writeDevSession({
    kubeconfig: kubeconfigPath,
    namespace: demoNamespace,
    ...(moto && queueUrl ? { queueUrl, sqsEndpoint: moto.endpoint, region } : {}),
  }),
  (remove) => remove(),
)
if (queueUrl) {
  console.log(
    'interrupt one: node --import tsx functions/cli.ts dev interrupt <machine> [--kind spot|rebalance|maintenance|stopping|terminated]',
  )
}

let lastTable = ''
const table = setInterval(async () => {
  const page = await deps.kube
    .list(machineApiTypes.machine, { namespace: demoNamespace })
    .catch(() => undefined)
  if (!page || stopping) return
  const text = formatMachineTable(page.items)
  if (text !== lastTable) {
    lastTable = text
    console.log(`\n${new Date().toISOString()}\n${text}`)
  }
}, 2000)
stops.push(() => clearInterval(table))
