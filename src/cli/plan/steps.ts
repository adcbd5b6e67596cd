/**
 * @module What `machine-api plan` reports: the steps the controllers would take, each a
 * MachineDeployment pass (MachineSet changes) followed by the MachineSet passes it causes
 * (Machine changes). Plain data, printed as text or JSON.
 */

import type { ReplacementPreview } from './replacements'

/** One change, named as the controllers' Events name it. */
export type PlanEntry =
  | { type: 'rollback'; revision: number }
  | { type: 'create-set'; set: string; revision: number; replicas: number }
  | { type: 'scale-set'; set: string; from: number; to: number }
  | { type: 'update-set'; set: string; fields: string[] }
  | { type: 'delete-set'; set: string }
  | { type: 'create-machine'; set: string; machine: string }
  | { type: 'delete-machine'; set: string; machine: string; reason: string }
  | { type: 'update-machine'; set: string; machine: string; fields: string[] }
  | { type: 'adopt-machine'; set: string; machine: string }
  | { type: 'release-machine'; set: string; machine: string }

/** One step: everything that happens before the next MachineDeployment decision. */
export interface PlanStep {
  entries: PlanEntry[]
}

/** Replicas and Machines of a MachineSet once the plan has run. */
export interface FinalSet {
  set: string
  replicas: number
  machines: number
}

/** The whole plan. */
export interface PlanReport {
  kind: 'MachineDeployment' | 'MachineSet'
  namespace: string
  name: string
  /** False when the object does not exist yet (applying creates it). */
  exists: boolean
  steps: PlanStep[]
  final: FinalSet[]
  /** True when the simulation reached a state where the controllers do nothing more. */
  converged: boolean
  /** The Machines the controllers would replace now, and why (drift, expiry, rollout). */
  replacements?: ReplacementPreview[]
}

/**
 * The placeholder name of the n-th (1-based) Machine created in a MachineSet that does not exist
 * yet: real names derive from the set's uid, which the apiserver assigns on creation.
 */
export function newMachineName(set: string, n: number): string {
  return `${set}-<new-${n}>`
}
