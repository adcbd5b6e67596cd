/**
 * @module A real Kubernetes node for the end-to-end tests: Debian's containerd (CRI) + kubelet +
 * kube-proxy built from the control plane's module pins + the bridge CNI plugin, on the host as
 * root. Pods run real containers from images loaded into containerd (nothing is pulled), and reach
 * the apiserver through the `kubernetes` Service, so the control plane must listen on
 * nodeNetwork.hostAddress (prepareHost() puts it on a link of its own). One node per machine at a time
 * (it owns kube-proxy's iptables chains): acquireNodeLock() waits for another run's node to stop.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ControlPlane } from '../controlplane'
import { freePort } from '../controlplane/free-port'
import { type SupervisedProcess, startSupervised } from '../controlplane/supervised-process'
import {
  cniConflist,
  containerdConfig,
  kubeletConfig,
  kubeProxyConfig,
  nodeNetwork,
  nodePaths,
} from './node-config'

const buildScript = fileURLToPath(new URL('./build.sh', import.meta.url))
const cleanupScript = fileURLToPath(new URL('./cleanup.sh', import.meta.url))
const cniBinDir = '/usr/lib/cni'

export interface RealNode {
  readonly name: string
  readonly dir: string
  /** Loads a `docker save` archive into the node's containerd (the kubelet's k8s.io namespace). */
  importImage(archivePath: string): void
  /** Stops kube-proxy, kubelet and containerd and removes what they left on the host. */
  stop(): Promise<void>
}

/** kubelet, kube-proxy and the pause image, built (or found in the cache) by build.sh. */
export function nodeBinDir(): string {
  const fromEnv = process.env.MACHINE_API_NODE_BIN_DIR
  if (fromEnv) return fromEnv
  const out = execFileSync('bash', [buildScript], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const dir = out.trim().split('\n').pop()
  if (!dir) throw new Error('node build.sh printed no directory')
  return dir
}

/** Holds a machine-wide lock until release() (a `flock` child that keeps it while alive). */
export async function acquireNodeLock(lockPath: string): Promise<{ release(): void }> {
  const holder: ChildProcess = spawn(
    'flock',
    ['-x', lockPath, '-c', 'echo locked; exec cat >/dev/null'],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  )
  await new Promise<void>((resolve, reject) => {
    holder.once('error', reject)
    holder.once('exit', (code) => reject(new Error(`flock exited ${code}`)))
    holder.stdout?.once('data', () => resolve())
  })
  return {
    release() {
      holder.stdin?.end()
    },
  }
}

function cleanupHost(dir: string, kubeProxy?: string): void {
  const { bridge, hostLink } = nodeNetwork
  execFileSync('bash', [cleanupScript, dir, bridge, hostLink, kubeProxy ?? ''], {
    stdio: 'inherit',
  })
}

/**
 * Puts nodeNetwork.hostAddress on an empty bridge of its own (after removing a killed run's leftovers under
 * `baseDir`), so the control plane can be started there before the node.
 */
export function prepareHost(baseDir: string): string {
  mkdirSync(baseDir, { recursive: true })
  cleanupHost(baseDir)
  const dir = mkdtempSync(join(baseDir, 'machine-api-node-'))
  const { hostLink, hostAddress } = nodeNetwork
  execFileSync('ip', ['link', 'add', hostLink, 'type', 'bridge'])
  execFileSync('ip', ['addr', 'add', `${hostAddress}/32`, 'dev', hostLink])
  execFileSync('ip', ['link', 'set', hostLink, 'up'])
  return dir
}

/** Starts containerd, kubelet and kube-proxy in `dir` (from prepareHost) and waits for Ready. */
export async function startRealNode(options: {
  dir: string
  controlPlane: ControlPlane
  binDir?: string
  name?: string
  readyTimeoutMs?: number
}): Promise<RealNode> {
  const { dir, controlPlane } = options
  const binDir = options.binDir ?? nodeBinDir()
  const name = options.name ?? 'machine-api-e2e-node'
  const paths = nodePaths(dir)
  const logDir = join(dir, 'logs')
  for (const d of [logDir, paths.cniConfDir, join(dir, 'containerd'), paths.kubeletRoot]) {
    mkdirSync(d, { recursive: true })
  }
  const processes: SupervisedProcess[] = []
  const start = (proc: string, command: string, args: string[]) => {
    const p = startSupervised({ name: proc, command, args, logPath: join(logDir, `${proc}.log`) })
    processes.push(p)
    return p
  }
  const ctr = (args: string[]) =>
    execFileSync('ctr', ['--address', paths.containerdSocket, '--namespace', 'k8s.io', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
  const stop = async () => {
    for (const p of [...processes].reverse()) await p.stop()
    cleanupHost(dir, join(binDir, 'kube-proxy'))
    rmSync(dir, { recursive: true, force: true })
  }

  try {
    writeFileSync(join(dir, 'containerd.toml'), containerdConfig(paths, cniBinDir))
    writeFileSync(
      join(paths.cniConfDir, '10-machine-api.conflist'),
      cniConflist(paths, nodeNetwork),
    )
    const containerd = start('containerd', '/usr/bin/containerd', [
      '--config',
      join(dir, 'containerd.toml'),
    ])
    await waitFor(
      () => {
        if (!containerd.isRunning()) throw new Error(`containerd exited:\n${containerd.tail()}`)
        ctr(['version'])
        return true
      },
      30_000,
      'containerd',
    )
    ctr(['images', 'import', join(binDir, 'pause.tar')])

    const kubeletPath = join(dir, 'kubelet.json')
    writeFileSync(kubeletPath, kubeletConfig(paths, nodeNetwork, await freePort()))
    start('kubelet', join(binDir, 'kubelet'), [
      `--config=${kubeletPath}`,
      `--kubeconfig=${controlPlane.kubeconfigPath}`,
      `--root-dir=${paths.kubeletRoot}`,
      `--hostname-override=${name}`,
      `--node-ip=${nodeNetwork.hostAddress}`,
    ])
    const proxyPath = join(dir, 'kube-proxy.json')
    const proxyPorts = { metrics: await freePort(), healthz: await freePort() }
    writeFileSync(
      proxyPath,
      kubeProxyConfig(controlPlane.kubeconfigPath, name, nodeNetwork, proxyPorts),
    )
    start('kube-proxy', join(binDir, 'kube-proxy'), [`--config=${proxyPath}`])

    await waitFor(
      () => {
        for (const p of processes)
          if (!p.isRunning()) throw new Error(`${p.name} exited:\n${p.tail()}`)
        const ready = execFileSync(
          controlPlane.kubectlPath,
          [
            '--kubeconfig',
            controlPlane.kubeconfigPath,
            'get',
            'node',
            name,
            '-o',
            'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
          ],
          { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
        )
        return ready === 'True'
      },
      options.readyTimeoutMs ?? 90_000,
      `node ${name} Ready`,
    )
    return {
      name,
      dir,
      importImage(archivePath) {
        ctr(['images', 'import', archivePath])
      },
      stop,
    }
  } catch (error) {
    const tails = processes.map((p) => `--- ${p.name}\n${p.tail(15)}`).join('\n')
    await stop()
    throw new Error(`${String(error)}\n${tails}`)
  }
}

async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  while (Date.now() < deadline) {
    try {
      if (check()) return
    } catch (error) {
      last = error
      if (error instanceof Error && / exited:/.test(error.message)) throw error
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`)
}

/** The parent of every node directory: one place for cleanup.sh to sweep after a killed run. */
export function nodeBaseDir(): string {
  return join(tmpdir(), 'machine-api-nodes')
}
