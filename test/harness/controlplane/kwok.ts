/**
 * @module kwok, the simulated kubelet: its stage files and a way to run an extra kwok for the
 * Nodes of one test. kwok keeps renewing the lease of a Node it once managed even after the Node's
 * annotation changes, so "the kubelet goes silent" is simulated by stopping a kwok of its own.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { kwokArgs } from './component-args'
import { type SupervisedProcess, startSupervised } from './supervised-process'

/** The annotation the control plane's own kwok manages: `kwok.x-k8s.io/node: fake`. */
export const kwokNodeSelector = 'kwok.x-k8s.io/node=fake'

const stageNames = [
  'node-initialize',
  'node-heartbeat-with-lease',
  'node-not-ready',
  'pod-ready',
  'pod-complete',
  'pod-delete',
]

/** Writes the stage definitions kwok needs (it has no built-in stages) into one file in `dir`. */
export function writeKwokStages(dir: string, binDir: string): string {
  const docs = stageNames.map((name) => {
    const path = join(binDir, 'stages', `${name}.yaml`)
    if (!existsSync(path)) throw new Error(`kwok stage ${path} is missing; rerun build.sh`)
    return readFileSync(path, 'utf8').trim()
  })
  const path = join(dir, 'kwok-stages.yaml')
  writeFileSync(path, `${docs.join('\n---\n')}\n`)
  return path
}

/**
 * Starts another kwok that manages only Nodes annotated `annotation: value`. Stop it to make those
 * Nodes go silent the way a dead kubelet does.
 */
export function startExtraKwok(options: {
  kubeconfigPath: string
  binDir: string
  annotation: string
  value: string
}): SupervisedProcess & { stopAndClean(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'machine-api-kwok-'))
  const proc = startSupervised({
    name: 'kwok',
    command: join(options.binDir, 'kwok'),
    args: kwokArgs(
      options.kubeconfigPath,
      writeKwokStages(dir, options.binDir),
      `${options.annotation}=${options.value}`,
    ),
    logPath: join(dir, 'kwok.log'),
  })
  return {
    ...proc,
    async stopAndClean() {
      await proc.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
