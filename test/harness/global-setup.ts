/** @module vitest globalSetup: one real control plane per test run, shared by integration tests. */
import type { TestProject } from 'vitest/node'
import { type ControlPlane, startControlPlane } from './controlplane'

declare module 'vitest' {
  export interface ProvidedContext {
    kubeconfigPath: string
    kubectlPath: string
    controlPlaneWorkDir: string
    controlPlaneBinDir: string
  }
}

let controlPlane: ControlPlane | undefined

export async function setup(project: TestProject): Promise<void> {
  controlPlane = await startControlPlane({ keepData: process.env.MACHINE_API_KEEP_DATA === '1' })
  project.provide('kubeconfigPath', controlPlane.kubeconfigPath)
  project.provide('kubectlPath', controlPlane.kubectlPath)
  project.provide('controlPlaneWorkDir', controlPlane.workDir)
  project.provide('controlPlaneBinDir', controlPlane.binDir)
}

export async function teardown(): Promise<void> {
  await controlPlane?.stop()
}
