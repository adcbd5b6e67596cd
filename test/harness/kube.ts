/** @module Helpers for integration tests: clients for the shared control plane, namespaces, waits. */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { ApiException, CoreV1Api, KubeConfig } from '@kubernetes/client-node'
import { inject, onTestFinished } from 'vitest'

const execFileAsync = promisify(execFile)

/** A KubeConfig for the control plane that globalSetup started. */
export function testKubeConfig(): KubeConfig {
  const kc = new KubeConfig()
  kc.loadFromFile(inject('kubeconfigPath'))
  return kc
}

/** A short random suffix for cluster-scoped names (Nodes) shared by all tests. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(3).toString('hex')}`
}

/** Creates a namespace for the current test and deletes it when the test finishes. */
export async function testNamespace(kc: KubeConfig, prefix = 'test'): Promise<string> {
  const core = kc.makeApiClient(CoreV1Api)
  const name = uniqueName(prefix)
  await core.createNamespace({ body: { metadata: { name } } })
  onTestFinished(async () => {
    await core.deleteNamespace({ name }).catch(ignoreNotFound)
  })
  return name
}

/** Swallows a 404 from the apiserver; rethrows anything else. */
export function ignoreNotFound(error: unknown): void {
  if (error instanceof ApiException && error.code === 404) return
  throw error
}

/**
 * Calls `probe` until it returns a value other than undefined/false, and returns that value.
 * Errors thrown by the probe count as "not yet" until the deadline, then the last one is rethrown.
 */
export async function waitFor<T>(
  description: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  let lastError: unknown
  for (;;) {
    try {
      const value = await probe()
      if (value !== undefined && value !== false) return value
    } catch (error) {
      lastError = error
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? `: ${lastError.message}` : ''
      throw new Error(`timed out waiting for ${description}${cause}`)
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250))
  }
}

/** Runs the kubectl built with the control plane against it, as a user would. */
export async function kubectl(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return await kubectlFor(inject('kubectlPath'), inject('kubeconfigPath'))(args)
}

/** Output of a kubectl run. */
export type Kubectl = (args: string[]) => Promise<{ stdout: string; stderr: string }>

/** kubectl against any control plane (benchmarks and chaos scenarios start their own). */
export function kubectlFor(kubectlPath: string, kubeconfigPath: string): Kubectl {
  return async (args) =>
    await execFileAsync(kubectlPath, ['--kubeconfig', kubeconfigPath, ...args], {
      encoding: 'utf8',
    })
}
