/**
 * @module cert-manager for the end-to-end tests: its CRDs applied, and its controller and CA
 * injector (built by ./build.sh from the cert-manager module) running as host processes against
 * the cluster. Host processes rather than pods on the real node: cert-manager is not what is under
 * test and no image of it can be pulled here; what the overlays need from it is that it issues
 * their certificates and injects their CA, which it does the same from either place.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type SupervisedProcess, startSupervised } from '../controlplane/supervised-process'

const buildScript = fileURLToPath(new URL('./build.sh', import.meta.url))

export interface CertManager {
  stop(): Promise<void>
}

/** The controller, cainjector and CRDs, built (or found in the cache) by build.sh. */
export function certManagerDir(): string {
  const fromEnv = process.env.MACHINE_API_CERT_MANAGER_DIR
  if (fromEnv) return fromEnv
  const out = execFileSync('bash', [buildScript], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const dir = out.trim().split('\n').pop()
  if (!dir) throw new Error('cert-manager build.sh printed no directory')
  return dir
}

export function startCertManager(options: {
  kubeconfigPath: string
  kubectlPath: string
  logDir: string
  dir?: string
}): CertManager {
  const dir = options.dir ?? certManagerDir()
  mkdirSync(options.logDir, { recursive: true })
  const kubectl = (args: string[]) =>
    execFileSync(options.kubectlPath, ['--kubeconfig', options.kubeconfigPath, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
  // Server-side: the CRDs are too large for kubectl's last-applied annotation.
  kubectl(['apply', '--server-side', '-f', join(dir, 'crds.yaml')])
  const crds = ['certificates', 'certificaterequests', 'issuers', 'clusterissuers']
  kubectl([
    'wait',
    '--for=condition=Established',
    '--timeout=60s',
    ...crds.map((plural) => `crd/${plural}.cert-manager.io`),
  ])
  kubectl(['create', 'namespace', 'cert-manager'])
  const processes: SupervisedProcess[] = ['controller', 'cainjector'].map((name) =>
    startSupervised({
      name: `cert-manager-${name}`,
      command: join(dir, name),
      // -v=2: cert-manager's info level (what it issued, what it injected).
      args: [`--kubeconfig=${options.kubeconfigPath}`, '-v=2'],
      logPath: join(options.logDir, `cert-manager-${name}.log`),
    }),
  )
  return {
    async stop() {
      await Promise.all(processes.map((p) => p.stop()))
    },
  }
}
