/**
 * @module Starts a real Kubernetes control plane (etcd, kube-apiserver and optionally
 * kube-controller-manager, kube-scheduler and kwok) on 127.0.0.1 with fresh ports, credentials and
 * data, for the test suite and the demo.
 */
import { execFileSync } from 'node:child_process'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { apiserverArgs, etcdArgs, kcmArgs, kwokArgs, schedulerArgs } from './component-args'
import { freePort } from './free-port'
import { kwokNodeSelector, writeKwokStages } from './kwok'
import { apiserverGet, waitForReadyz } from './readyz'
import { type SupervisedProcess, startSupervised } from './supervised-process'

export interface ControlPlaneOptions {
  /** Run kube-controller-manager (garbage collector, node lifecycle, disruption...). Default true. */
  kcm?: boolean
  /** Run kube-scheduler so Pods land on Nodes. Default true. */
  scheduler?: boolean
  /** Run kwok, which plays the kubelet of Nodes annotated `kwok.x-k8s.io/node=fake`. Default true. */
  kwok?: boolean
  /** Where the binaries are; default: $MACHINE_API_BIN_DIR, else the cache filled by build.sh. */
  binDir?: string
  /** Parent directory for this control plane's data, logs and kubeconfig; default: the OS temp dir. */
  baseDir?: string
  /** Keep data and logs after stop (for debugging). */
  keepData?: boolean
  /** Serve the apiserver's /debug/pprof (CPU profiles). Default false. */
  profiling?: boolean
  /**
   * The address the apiserver listens on and advertises; default 127.0.0.1. A real node's pods
   * reach the apiserver only through a non-loopback one (see ../node).
   */
  address?: string
}

export interface ControlPlane {
  /** An admin kubeconfig (system:masters) for this control plane. */
  readonly kubeconfigPath: string
  /** The kubectl built with the control plane. */
  readonly kubectlPath: string
  readonly binDir: string
  /** The apiserver URL, https://127.0.0.1:PORT. */
  readonly server: string
  /** The gitVersion the apiserver reports, e.g. v1.37.2. */
  readonly version: string
  /** Data, certificates and one log file per component. */
  readonly workDir: string
  /**
   * Stops kube-apiserver alone (SIGTERM, as a node reboot or an upgrade would), leaving etcd and
   * the clients running: an apiserver outage for chaos tests.
   */
  stopApiserver(): Promise<void>
  /** Starts kube-apiserver again with the same flags, port and certificates; resolves on /readyz. */
  startApiserver(): Promise<void>
  /** Stops every component (kwok, scheduler, KCM, apiserver, etcd, in that order). */
  stop(): Promise<void>
}

const buildScript = fileURLToPath(new URL('./build.sh', import.meta.url))
const maxAttempts = 3

/** Builds (or reuses) the binaries and returns their directory. */
export function controlPlaneBinDir(): string {
  const fromEnv = process.env.MACHINE_API_BIN_DIR
  if (fromEnv) return fromEnv
  const out = execFileSync('bash', [buildScript], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const dir = out.trim().split('\n').pop()
  if (!dir) throw new Error('build.sh printed no binary directory')
  return dir
}

/**
 * Starts a control plane and resolves once `/readyz` is OK. Ports come from the kernel, so two runs
 * can overlap; a start that loses a port race is retried with new ports.
 */
export async function startControlPlane(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const binDir = options.binDir ?? controlPlaneBinDir()
  let lastError: unknown
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    try {
      return await startOnce(binDir, options)
    } catch (error) {
      lastError = error
      if (!(error instanceof PortInUseError)) throw error
    }
  }
  throw lastError
}

class PortInUseError extends Error {}

async function startOnce(binDir: string, options: ControlPlaneOptions): Promise<ControlPlane> {
  const baseDir = options.baseDir ?? tmpdir()
  mkdirSync(baseDir, { recursive: true })
  const workDir = mkdtempSync(join(baseDir, 'machine-api-cp-'))
  const logDir = join(workDir, 'logs')
  mkdirSync(logDir)
  const files = writeCredentials(workDir)
  const ports = {
    etcdClient: await freePort(),
    etcdPeer: await freePort(),
    apiserver: await freePort(),
  }
  const server = `https://${options.address ?? '127.0.0.1'}:${ports.apiserver}`
  const processes: SupervisedProcess[] = []
  const start = (name: string, args: string[]) => {
    const proc = startSupervised({
      name,
      command: join(binDir, name),
      args,
      logPath: join(logDir, `${name}.log`),
    })
    processes.push(proc)
    return proc
  }
  const stopAll = async () => {
    // Clients first (together), then the apiserver, then etcd, so nothing logs a lost server.
    const [etcd, apiserver, ...clients] = processes
    await Promise.all(clients.map((proc) => proc.stop()))
    await apiserver?.stop()
    await etcd?.stop()
    if (!options.keepData) rmSync(workDir, { recursive: true, force: true })
  }

  const startApiserver = () =>
    start(
      'kube-apiserver',
      apiserverArgs(workDir, ports, files, options.profiling, options.address),
    )
  const access = { server, token: files.token, caPath: files.servingCert }

  try {
    start('etcd', etcdArgs(workDir, ports))
    const apiserver = startApiserver()
    await waitForReadyz({ ...access, processes, apiserver })
    const kubeconfigPath = join(workDir, 'kubeconfig')
    writeKubeconfig(kubeconfigPath, server, files)
    if (options.kcm ?? true) start('kube-controller-manager', kcmArgs(kubeconfigPath, files))
    if (options.scheduler ?? true) start('kube-scheduler', schedulerArgs(kubeconfigPath))
    if (options.kwok ?? true)
      start('kwok', kwokArgs(kubeconfigPath, writeKwokStages(workDir, binDir), kwokNodeSelector))
    const version = JSON.parse(await apiserverGet(access, '/version')).gitVersion as string
    return {
      kubeconfigPath,
      kubectlPath: join(binDir, 'kubectl'),
      binDir,
      server,
      version,
      workDir,
      async stopApiserver() {
        await processes[1]?.stop()
      },
      async startApiserver() {
        const [etcd, previous] = processes
        if (!etcd || previous?.isRunning()) throw new Error('kube-apiserver is already running')
        // start() appended it; it takes the stopped one's place, so stop() keeps its order.
        const restarted = startApiserver()
        processes.pop()
        processes[1] = restarted
        // Only etcd and the apiserver must live: a client may exit while the apiserver is gone.
        await waitForReadyz({ ...access, processes: [etcd, restarted], apiserver: restarted })
      },
      stop: stopAll,
    }
  } catch (error) {
    const portClash = processes.some((p) => /address already in use/.test(p.tail(50)))
    await stopAll()
    if (portClash) throw new PortInUseError(String(error))
    throw error
  }
}

interface CredentialFiles {
  token: string
  tokenFile: string
  saKey: string
  /** The apiserver writes its self-signed serving certificate here on first start. */
  servingCert: string
}

function writeCredentials(workDir: string): CredentialFiles {
  const token = randomBytes(24).toString('hex')
  const tokenFile = join(workDir, 'tokens.csv')
  writeFileSync(tokenFile, `${token},admin,admin,"system:masters"\n`, { mode: 0o600 })
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  })
  const saKey = join(workDir, 'sa.key')
  writeFileSync(saKey, privateKey, { mode: 0o600 })
  mkdirSync(join(workDir, 'pki'))
  return { token, tokenFile, saKey, servingCert: join(workDir, 'pki', 'apiserver.crt') }
}

function writeKubeconfig(path: string, server: string, files: CredentialFiles): void {
  const ca = readFileSync(files.servingCert).toString('base64')
  // JSON is valid YAML, and every kubeconfig reader accepts it.
  const kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'machine-api', cluster: { server, 'certificate-authority-data': ca } }],
    users: [{ name: 'admin', user: { token: files.token } }],
    contexts: [{ name: 'machine-api', context: { cluster: 'machine-api', user: 'admin' } }],
    'current-context': 'machine-api',
  }
  writeFileSync(path, `${JSON.stringify(kubeconfig, null, 2)}\n`, { mode: 0o600 })
}
