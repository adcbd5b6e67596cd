/**
 * @module Waits until a scenario's fleet has converged, for any scenario on the aws world (added by
 * helper C1 for the others to share): every MachineSet has its replica count, every Machine is
 * Running with a Node, and EC2 and the Nodes agree with the Machines (no duplicate or orphan).
 */
import type { EC2Client } from '@aws-sdk/client-ec2'
import type { KubeClient } from '../../../src/kube/kube-client'
import { auditFleet, type FleetAudit } from './fleet-snapshot'

/** True when nothing in the audit is left to converge or wrong. */
export function isConverged(audit: FleetAudit): boolean {
  return (
    audit.duplicateInstances === 0 &&
    audit.orphanInstances === 0 &&
    audit.orphanNodes === 0 &&
    audit.machinesWithoutInstance.length === 0 &&
    audit.notRunning.length === 0 &&
    audit.wrongCount.length === 0 &&
    audit.liveInstances === audit.machines
  )
}

/**
 * Audits every `intervalMs` until the fleet converged or `timeoutMs` passed; resolves with the
 * last audit either way (check `converged`), so the caller can count what is still wrong.
 */
export async function waitForConvergence(options: {
  kube: KubeClient
  ec2: EC2Client
  namespace: string
  timeoutMs: number
  intervalMs?: number
}): Promise<{ converged: boolean; audit: FleetAudit; waitedMs: number }> {
  const started = Date.now()
  const deadline = started + options.timeoutMs
  for (;;) {
    // An apiserver or moto that is briefly away (an outage scenario) is waited out, not fatal.
    const audit = await auditFleet(options).catch((error: unknown) => {
      if (Date.now() >= deadline) throw error
      return undefined
    })
    const converged = audit !== undefined && isConverged(audit)
    if (audit && (converged || Date.now() >= deadline)) {
      return { converged, audit, waitedMs: Date.now() - started }
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 500))
  }
}
