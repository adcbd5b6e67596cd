/**
 * `npm run dev -- --in-cluster`: the install as users run it. A control plane with one real node
 * (containerd + kubelet + kube-proxy, test/harness/node) and cert-manager, the machine-api image
 * built here and loaded into the node, the plain overlay applied with `kubectl apply -k` (image by
 * kustomize `images:`, kwok as the provider), then the demo's kwok MachineDeployment. Prints
 * `KUBECONFIG=` and `KUBECTL=` lines and a live table of Machines until Ctrl-C, which stops
 * everything and leaves nothing on the host. Needs root (the node), as the tests do.
 */
import { demoNamespace, demoObjects } from '../src/dev/examples'
import { startE2eCluster } from '../test/harness/node/e2e-cluster'
import { installOverlay } from '../test/harness/node/install'
import { systemNamespace } from '../test/harness/node/overlay-checks'

console.log(
  'starting a control plane, a real node and cert-manager; building the image (first run: minutes)',
)
const cluster = await startE2eCluster({ certManager: true })
let stopping = false
async function shutdown(signal: string): Promise<void> {
  if (stopping) return
  stopping = true
  console.log(`${signal}: stopping`)
  await cluster.stop()
  process.exit(0)
}
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))

const { kubeconfigPath, kubectlPath } = cluster.controlPlane
console.log(`KUBECONFIG=${kubeconfigPath}`)
console.log(`KUBECTL=${kubectlPath}`)
try {
  console.log(
    await installOverlay(cluster, 'plain', [
      { kind: 'Deployment', name: 'machine-api-worker', container: 'worker' },
      { kind: 'CronJob', name: 'machine-api-sweep', container: 'sweep' },
    ]),
  )
  await cluster.kubectl([
    'wait',
    '-n',
    systemNamespace,
    '--for=condition=Available',
    '--timeout=300s',
    'deployment/machine-api-webhook',
    'deployment/machine-api-worker',
  ])
  const objects = { apiVersion: 'v1', kind: 'List', items: demoObjects({ provider: 'kwok' }) }
  console.log(await cluster.kubectl(['apply', '-f', '-'], JSON.stringify(objects)))
} catch (error) {
  console.error(String(error))
  await shutdown('install failed')
}
console.log(`the plain overlay runs in namespace ${systemNamespace} on node ${cluster.node.name}`)
console.log(
  `try: "$KUBECTL" --kubeconfig "$KUBECONFIG" -n ${systemNamespace} get pods,deployments,cronjobs`,
)
console.log(
  `     "$KUBECTL" --kubeconfig "$KUBECONFIG" -n ${demoNamespace} get machines,machinedeployments`,
)

let lastTable = ''
setInterval(async () => {
  if (stopping) return
  const table = await cluster.kubectl(['get', 'machines', '-n', demoNamespace]).catch(() => '')
  // Printed when something but the AGE column changed.
  const withoutAge = table.replace(/\s+\S+$/gm, '')
  if (table && withoutAge !== lastTable) {
    lastTable = withoutAge
    console.log(`\n${new Date().toISOString()}\n${table}`)
  }
}, 2000)
