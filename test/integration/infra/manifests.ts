/** @module Helpers for the infra tests: render an overlay once, rewrite names for isolation, apply files. */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { kubectl } from '../../harness/kube'

/** The repository root (kustomize paths are given from it). */
export const repoRoot = join(import.meta.dirname, '..', '..', '..')

/** `kubectl kustomize <dir>` for a directory relative to the repository root. */
export async function renderOverlay(dir: string): Promise<string> {
  const { stdout } = await kubectl(['kustomize', join(repoRoot, dir)])
  return stdout
}

/** A short random suffix, lowercase hex. */
export function suffix(): string {
  return randomBytes(3).toString('hex')
}

/** Writes `text` to a temporary file; `cleanup` removes it. */
export function tempManifest(text: string): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'machine-api-infra-'))
  const path = join(dir, 'manifest.yaml')
  writeFileSync(path, text)
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Runs kubectl and resolves with stdout and the exit code instead of rejecting on non-zero. */
export async function kubectlStatus(
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await kubectl(args)
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? String(error),
    }
  }
}
