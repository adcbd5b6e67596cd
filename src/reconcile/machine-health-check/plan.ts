/**
 * @module The remediation decision of a MachineHealthCheck. Pure: evaluations + policy -> counts
 * and actions.
 *
 * Storm protection, in order:
 *  1. Short-circuit: unhealthy = expected - currentHealthy, so Machines waiting for a Node, with a
 *     pending condition, being deleted or handed off all count. While that exceeds `maxUnhealthy`
 *     nothing is remediated (a zonal outage must not delete half the fleet).
 *  2. `maxInFlight`: at most that many Machines are being remediated at once, oldest failure first.
 *  3. Deletion only for Machines a MachineSet controls (the set replaces them); others are marked.
 *  4. A Failed Machine a MachineSet controls is left to that set: the set replaces Failed Machines
 *     itself under a backoff kept in its status, so a Machine failing on its configuration (a bad
 *     AMI) is replaced at a slowing pace instead of in a delete/create loop (machine-api-operator
 *     #736; Cluster API v1beta2's health check likewise no longer acts on failureReason). It still
 *     counts as not healthy towards maxUnhealthy.
 */

import { ANNOTATIONS } from '../../api/group'
import { type IntOrPercent, resolveIntOrPercent } from '../../api/shared/int-or-string'
import type { TargetMachine } from './target'
import type { TargetEvaluation } from './targets'

/** How unhealthy Machines are remediated. */
export type RemediationMode =
  | { type: 'delete' }
  /** Hand off by annotating the Machine (MHC annotation `remediation-strategy: external`). */
  | { type: 'external-annotation' }
  /** Hand off by creating a request from `spec.remediation.externalTemplateRef`. */
  | { type: 'external-template'; template: { apiVersion: string; kind: string; name: string } }

/** The policy part of the spec, parsed. */
export interface RemediationPolicy {
  maxUnhealthy: IntOrPercent
  maxInFlight?: IntOrPercent | undefined
  mode: RemediationMode
}

/** One thing to do; the executor switches on `type`. */
export type RemediationAction =
  /** Delete the Machine (its drain and hooks apply); its MachineSet creates a replacement. */
  | { type: 'delete'; evaluation: TargetEvaluation }
  /** Hand the Machine to an external remediator instead of deleting it. */
  | {
      type: 'hand-off'
      evaluation: TargetEvaluation
      mode: Exclude<RemediationMode, { type: 'delete' }>
    }
  /** The Machine is healthy again: remove the hand-off marker (and the request, if any). */
  | { type: 'clear-hand-off'; machine: TargetMachine; mode: RemediationMode }

/** Why an unhealthy Machine was left alone this pass. */
export type SkipReason =
  | 'TooManyUnhealthy'
  | 'MaxInFlight'
  | 'NoMachineSetOwner'
  | 'SkipAnnotation'
  | 'LeftToMachineSet'

/** The decision and the counts status reports. */
export interface RemediationPlan {
  expectedMachines: number
  currentHealthy: number
  /** expected - currentHealthy. */
  unhealthy: number
  /** maxUnhealthy resolved against expectedMachines (percent rounds down). */
  maxUnhealthy: number
  remediationsAllowed: number
  shortCircuited: boolean
  /** Remediations under way before this pass. */
  inFlight: number
  maxInFlight?: number
  actions: RemediationAction[]
  skipped: Array<{ name: string; reason: SkipReason }>
}

function failureOrder(a: TargetEvaluation, b: TargetEvaluation): number {
  // Requested and failed Machines carry no start time: they go first.
  const since = (e: TargetEvaluation) =>
    e.health.state === 'unhealthy' ? (e.health.sinceMs ?? Number.NEGATIVE_INFINITY) : 0
  const bySince = since(a) - since(b)
  if (bySince !== 0 && !Number.isNaN(bySince)) return bySince
  return a.target.machine.name.localeCompare(b.target.machine.name)
}

/** A Failed Machine its MachineSet replaces itself (see the module comment, point 4). */
function leftToMachineSet(e: TargetEvaluation): boolean {
  return (
    e.health.state === 'unhealthy' &&
    e.health.reason === 'MachineFailed' &&
    e.target.machine.machineSetOwner !== undefined
  )
}

/** Decides what to remediate now. Returns counts for status and the actions, oldest failure first. */
export function planRemediation(
  evaluations: TargetEvaluation[],
  policy: RemediationPolicy,
): RemediationPlan {
  const expectedMachines = evaluations.length
  const currentHealthy = evaluations.filter((e) => e.healthy).length
  const unhealthy = expectedMachines - currentHealthy
  const maxUnhealthy = resolveIntOrPercent(policy.maxUnhealthy, expectedMachines, false)
  const shortCircuited = unhealthy > maxUnhealthy
  let inFlight = evaluations.filter((e) => e.inFlight).length
  // Rounds up so that a percentage of a small set still allows one remediation.
  const maxInFlight =
    policy.maxInFlight === undefined
      ? undefined
      : resolveIntOrPercent(policy.maxInFlight, expectedMachines, true)
  const actions: RemediationAction[] = []
  const skipped: RemediationPlan['skipped'] = []
  const alreadyInFlight = inFlight
  const candidates = evaluations
    .filter((e) => e.health.state === 'unhealthy' && !e.inFlight)
    .sort(failureOrder)
  for (const evaluation of candidates) {
    const { machine } = evaluation.target
    const skip = (reason: SkipReason) => skipped.push({ name: machine.name, reason })
    if (ANNOTATIONS.skipRemediation in machine.annotations) skip('SkipAnnotation')
    else if (leftToMachineSet(evaluation)) skip('LeftToMachineSet')
    else if (shortCircuited) skip('TooManyUnhealthy')
    else if (policy.mode.type === 'delete' && !machine.machineSetOwner) skip('NoMachineSetOwner')
    else if (maxInFlight !== undefined && inFlight >= maxInFlight) skip('MaxInFlight')
    else {
      inFlight++
      actions.push(
        policy.mode.type === 'delete'
          ? { type: 'delete', evaluation }
          : { type: 'hand-off', evaluation, mode: policy.mode },
      )
    }
  }
  for (const e of evaluations) {
    if (e.healthy && ANNOTATIONS.externalRemediation in e.target.machine.annotations) {
      actions.push({ type: 'clear-hand-off', machine: e.target.machine, mode: policy.mode })
    }
  }
  return {
    expectedMachines,
    currentHealthy,
    unhealthy,
    maxUnhealthy,
    remediationsAllowed: shortCircuited ? 0 : maxUnhealthy - unhealthy,
    shortCircuited,
    inFlight: alreadyInFlight,
    ...(maxInFlight === undefined ? {} : { maxInFlight }),
    actions,
    skipped,
  }
}
