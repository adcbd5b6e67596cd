/**
 * The local demo: a real control plane (etcd, kube-apiserver, KCM, scheduler, kwok) in the
 * foreground. Prints `KUBECONFIG=<path>` and `KUBECTL=<path>` once ready (scripts rely on both
 * lines) and stops everything on SIGINT/SIGTERM.
 */
import { type ControlPlane, startControlPlane } from '../test/harness/controlplane'

let controlPlane: ControlPlane | undefined
let stopRequested: string | undefined
// Children are unref'd so a crash never hangs on them; this timer keeps the demo in the foreground.
const keepAlive = setInterval(() => {}, 60_000)

async function shutdown(signal: string): Promise<void> {
  if (stopRequested) return
  stopRequested = signal
  // A signal during start is handled once the start finishes (see below).
  if (!controlPlane) return
  console.log(`${signal}: stopping`)
  await controlPlane.stop()
  clearInterval(keepAlive)
  process.exit(0)
}
// Registered before anything starts: a Ctrl-C at any moment must stop what was started.
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))

controlPlane = await startControlPlane()
console.log(`KUBECONFIG=${controlPlane.kubeconfigPath}`)
console.log(`KUBECTL=${controlPlane.kubectlPath}`)
console.log(`control plane ${controlPlane.version} at ${controlPlane.server}; Ctrl-C stops it`)
if (stopRequested) {
  const signal = stopRequested
  stopRequested = undefined
  await shutdown(signal)
}
