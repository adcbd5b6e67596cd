/** @module Fluent-ish builders of health check targets for the unit tests (no I/O, no mocks). */
import type {
  HealthCheckRules,
  ObservedCondition,
  Target,
  TargetMachine,
} from '../../../../src/reconcile/machine-health-check/target'
import {
  evaluateTargets,
  type TargetEvaluation,
} from '../../../../src/reconcile/machine-health-check/targets'

export const now = new Date('2026-12-01T12:00:00Z')
export const nowMs = now.getTime()
export const minute = 60_000

/** `ms` before now as RFC 3339. */
export function ago(ms: number): string {
  return new Date(nowMs - ms).toISOString()
}

/** Ready=False for NotReady timeouts of 5m and Ready=Unknown of 5m; startup 10m. */
export const rules: HealthCheckRules = {
  unhealthyConditions: [
    { type: 'Ready', status: 'False', timeoutMs: 5 * minute },
    { type: 'Ready', status: 'Unknown', timeoutMs: 5 * minute },
  ],
  unhealthyMachineConditions: [],
  nodeStartupTimeoutMs: 10 * minute,
}

export function machine(name: string, extra: Partial<TargetMachine> = {}): TargetMachine {
  return {
    name,
    uid: `uid-${name}`,
    creationTimestamp: ago(60 * minute),
    annotations: {},
    machineSetOwner: 'set-a',
    phase: 'Running',
    nodeRef: { name: `node-${name}` },
    conditions: [],
    ...extra,
  }
}

export function nodeCondition(type: string, status: string, sinceMsAgo: number): ObservedCondition {
  return { type, status, lastTransitionTime: ago(sinceMsAgo) }
}

/** A linked target whose Node has `conditions` (Ready=True when none given). */
export function linked(
  name: string,
  conditions: ObservedCondition[] = [nodeCondition('Ready', 'True', 30 * minute)],
  extra: Partial<TargetMachine> = {},
): Target {
  return { machine: machine(name, extra), node: { name: `node-${name}`, conditions } }
}

/** A target whose Node went NotReady `sinceMsAgo`. */
export function notReady(name: string, sinceMsAgo: number, extra: Partial<TargetMachine> = {}) {
  return linked(name, [nodeCondition('Ready', 'False', sinceMsAgo)], extra)
}

export function evaluate(targets: Target[]): TargetEvaluation[] {
  return evaluateTargets(targets, rules, now).evaluations
}
