/**
 * @module The end-to-end tests' cluster: a control plane listening on the node network's host
 * address, one real node (./real-node) with the machine-api image loaded, and kwok for simulated
 * Machines' Nodes. Started by each e2e file's beforeAll, so the startup overlaps the integration
 * files instead of delaying the whole suite; runs on one machine one at a time (the node lock).
 */
import { execFile, execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { type CertManager, startCertManager } from '../certmanager/cert-manager'
import { type ControlPlane, startControlPlane } from '../controlplane'
import { nodeNetwork } from './node-config'
import {
  acquireNodeLock,
  nodeBaseDir,
  prepareHost,
  type RealNode,
  startRealNode,
} from './real-node'

const execFileAsync = promisify(execFile)
const imageBuildScript = fileURLToPath(new URL('../image/build.sh', import.meta.url))

export interface E2eCluster {
  readonly controlPlane: ControlPlane
  readonly node: RealNode
  /** The machine-api image reference loaded into the node (for kustomize `images:`). */
  readonly image: { name: string; tag: string }
  /** kubectl against the cluster as admin; resolves with stdout, rejects with stderr. */
  kubectl(args: string[], input?: string): Promise<string>
  stop(): Promise<void>
}

/** The image built from this checkout (test/harness/image/build.sh), as `name:tag` and archive. */
export function machineApiImage(): { reference: string; archive: string } {
  const out = execFileSync('bash', [imageBuildScript], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const [reference, archive] = out.trim().split('\n').slice(-2)
  if (!reference || !archive) throw new Error('image build.sh printed no image')
  return { reference, archive }
}

/** `certManager`: also run cert-manager (../certmanager), which the overlays need. */
export async function startE2eCluster(
  options: { certManager?: boolean } = {},
): Promise<E2eCluster> {
  const image = machineApiImage()
  const baseDir = nodeBaseDir()
  const lock = await acquireNodeLock(join('/tmp', 'machine-api-node.lock'))
  let controlPlane: ControlPlane | undefined
  let node: RealNode | undefined
  let certManager: CertManager | undefined
  const stop = async () => {
    try {
      await certManager?.stop()
      await node?.stop()
      await controlPlane?.stop()
    } finally {
      lock.release()
    }
  }
  try {
    const nodeDir = prepareHost(baseDir)
    controlPlane = await startControlPlane({
      address: nodeNetwork.hostAddress,
      baseDir,
      keepData: process.env.MACHINE_API_KEEP_DATA === '1',
    })
    node = await startRealNode({ dir: nodeDir, controlPlane })
    node.importImage(image.archive)
    if (options.certManager) {
      certManager = startCertManager({
        kubeconfigPath: controlPlane.kubeconfigPath,
        kubectlPath: controlPlane.kubectlPath,
        logDir: join(controlPlane.workDir, 'logs'),
      })
    }
  } catch (error) {
    await stop()
    throw error
  }
  const cp = controlPlane
  const [name = '', tag = ''] = splitReference(image.reference)
  return {
    controlPlane: cp,
    node,
    image: { name, tag },
    async kubectl(args, input) {
      const child = execFileAsync(cp.kubectlPath, ['--kubeconfig', cp.kubeconfigPath, ...args], {
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
      })
      if (input !== undefined) {
        child.child.stdin?.end(input)
      }
      try {
        return (await child).stdout
      } catch (error) {
        const stderr = (error as { stderr?: string }).stderr
        throw new Error(`kubectl ${args.join(' ')}: ${stderr ?? String(error)}`)
      }
    },
    stop,
  }
}

function splitReference(reference: string): [string, string] {
  const colon = reference.lastIndexOf(':')
  return [reference.slice(0, colon), reference.slice(colon + 1)]
}
