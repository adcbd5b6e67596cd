/**
 * The local demo: a real control plane (etcd, kube-apiserver, KCM, scheduler, kwok) in the
 * foreground. Prints `KUBECONFIG=<path>` and `KUBECTL=<path>` once ready (scripts rely on both
 * lines) and stops everything on SIGINT/SIGTERM.
 */
import { startControlPlane } from '../test/harness/controlplane'

const controlPlane = await startControlPlane()
console.log(`KUBECONFIG=${controlPlane.kubeconfigPath}`)
console.log(`KUBECTL=${controlPlane.kubectlPath}`)
console.log(`control plane ${controlPlane.version} at ${controlPlane.server}; Ctrl-C stops it`)

// Children are unref'd so a crash never hangs on them; this timer keeps the demo in the foreground.
const keepAlive = setInterval(() => {}, 60_000)
let stopping = false
async function shutdown(signal: string): Promise<void> {
  if (stopping) return
  stopping = true
  console.log(`${signal}: stopping`)
  await controlPlane.stop()
  clearInterval(keepAlive)
  process.exit(0)
}
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))
