/**
 * @module The real cluster-autoscaler (clusterapi provider, built by ./build.sh from the source
 * tarball beside the repository) against the test control plane: started with the environment and
 * flags docs/machine-sets.md gives, plus fast scan and scale-down settings, under a ServiceAccount
 * bound to the shipped `machine-api:cluster-autoscaler` role and to the autoscaler's own role for
 * Nodes and Pods (./workload-rbac.yaml). Never as admin: its machine-api requests go through the
 * shipped role alone.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../controlplane/free-port'
import { startSupervised } from '../controlplane/supervised-process'
import { waitFor } from '../kube'
import { documentedAutoscaler, fillPlaceholders } from './documented'
import { autoscalerIdentity } from './identity'

const buildScript = fileURLToPath(new URL('./build.sh', import.meta.url))

/**
 * Fast settings for tests (the defaults wait minutes): a loop every 2 s, a Node empty for 5 s is
 * removed, no pause after a scale-up, deletion or failure, no wait between tainting and deleting,
 * and Nodes without local storage or system Pods are not special. `--v=4` logs each loop and the
 * rollout skip the tests look for.
 */
export const fastSettings = [
  '--scan-interval=2s',
  '--scale-down-unneeded-time=5s',
  '--scale-down-unready-time=10s',
  '--scale-down-delay-after-add=0s',
  '--scale-down-delay-after-delete=0s',
  '--scale-down-delay-after-failure=0s',
  '--node-delete-delay-after-taint=0s',
  '--skip-nodes-with-local-storage=false',
  '--skip-nodes-with-system-pods=false',
  '--v=4',
]

/** The binary: $MACHINE_API_AUTOSCALER (ensure-deps.sh builds it up front), else build.sh's. */
export function clusterAutoscalerBinary(): string {
  const fromEnv = process.env.MACHINE_API_AUTOSCALER
  if (fromEnv) return fromEnv
  const out = execFileSync('bash', [buildScript], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const path = out.trim().split('\n').pop()
  if (!path) throw new Error('autoscaler build.sh printed no path')
  return path
}

/** A running autoscaler. */
export interface ClusterAutoscaler {
  /** Its log (kept after stop() with MACHINE_API_KEEP_DATA=1). */
  readonly logPath: string
  /** The log's length now: pass it to waitForLog() to look only at what comes later. */
  mark(): number
  /** Waits until its log from `mark` on has a line matching `pattern`; returns that line. */
  waitForLog(
    description: string,
    pattern: RegExp,
    options?: { mark?: number; timeoutMs?: number },
  ): Promise<string>
  /**
   * Resolves once `count` more loops have started, so at least (count - 1) scan intervals of
   * its decisions have passed: how a test waits out a period in which nothing may happen.
   */
  afterLoops(count: number): Promise<void>
  /** Stops it and removes its ServiceAccount's bindings and files. */
  stop(): Promise<void>
}

/**
 * Starts the autoscaler for the node groups of `namespace` (its status ConfigMap goes there too)
 * and resolves once it runs its loop.
 */
export async function startClusterAutoscaler(options: {
  namespace: string
}): Promise<ClusterAutoscaler> {
  const binary = clusterAutoscalerBinary()
  const dir = mkdtempSync(join(tmpdir(), 'machine-api-autoscaler-'))
  const identity = await autoscalerIdentity(options.namespace, dir)
  const documented = documentedAutoscaler()
  const logPath = join(dir, 'cluster-autoscaler.log')
  const proc = startSupervised({
    name: 'cluster-autoscaler',
    command: binary,
    args: [
      ...fillPlaceholders(documented.flags, { 'node-group-namespace': options.namespace }),
      // Outside a Pod: the ServiceAccount's credentials come from a kubeconfig.
      `--kubeconfig=${identity.kubeconfigPath}`,
      `--namespace=${options.namespace}`,
      '--leader-elect=false',
      `--address=127.0.0.1:${await freePort()}`,
      ...fastSettings,
    ],
    logPath,
    env: { ...process.env, ...documented.env },
  })
  const whole = () => {
    try {
      return readFileSync(logPath, 'utf8')
    } catch {
      return ''
    }
  }
  const log = (mark = 0) => whole().slice(mark)
  const mark = () => whole().length
  const stop = async () => {
    await proc.stop()
    await identity.unbind()
    if (process.env.MACHINE_API_KEEP_DATA !== '1') rmSync(dir, { recursive: true, force: true })
  }
  const lines = (from: number, pattern: RegExp) => {
    if (!proc.isRunning()) throw new Error(`cluster-autoscaler exited:\n${proc.tail(30)}`)
    return log(from)
      .split('\n')
      .filter((line) => pattern.test(line))
  }
  const waitForLog: ClusterAutoscaler['waitForLog'] = async (description, pattern, options = {}) =>
    await waitFor(description, () => lines(options.mark ?? 0, pattern)[0], {
      timeoutMs: options.timeoutMs ?? 60_000,
      intervalMs: 500,
    })
  const loopStart = /Starting main loop/
  const afterLoops = async (count: number) => {
    const from = mark()
    await waitFor(
      `${count} loops of cluster-autoscaler`,
      () => lines(from, loopStart).length >= count,
      {
        timeoutMs: 60_000 + count * 10_000,
        intervalMs: 500,
      },
    )
  }
  try {
    await waitForLog('cluster-autoscaler to run its loop', loopStart)
  } catch (error) {
    await stop()
    throw error
  }
  return { logPath, mark, waitForLog, afterLoops, stop }
}
