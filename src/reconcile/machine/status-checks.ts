/**
 * @module The Machine's side of EC2 status checks (src/api/instance-status-checks.ts): what the
 * sweep records for a verdict, and the `StatusChecksPassed` condition the record becomes. Pure.
 */
import { statusChecksPassedCondition } from '../../api/condition-types'
import {
  describeStatusCheckFailure,
  formatStatusCheckFailure,
  readStatusCheckFailure,
  type StatusCheckFailure,
} from '../../api/instance-status-checks'
import type { InstanceStatus } from '../../providers/instance-status'
import type { ConditionInput } from '../shared/conditions'

/** What a Machine needs for both decisions. */
interface CheckedMachine {
  metadata: { annotations?: Record<string, string> | undefined }
  spec: { providerID?: string | undefined }
  status?: { conditions?: ReadonlyArray<{ type: string }> | undefined } | undefined
}

/** The recorded failure when it is about the instance the Machine's providerID names. */
export function currentStatusCheckFailure(machine: CheckedMachine): StatusCheckFailure | undefined {
  const failure = readStatusCheckFailure(machine.metadata.annotations)
  const providerID = machine.spec.providerID
  if (!failure || (providerID && !providerID.endsWith(`/${failure.instanceId}`))) return undefined
  return failure
}

/**
 * The annotation change a verdict asks for: a value to write, `null` to remove it (checks pass
 * again), or undefined to leave it (nothing new: the same checks still fail, or still pass).
 */
export function statusCheckRecordChange(
  machine: CheckedMachine,
  status: InstanceStatus,
  now: Date,
): { value: string | null; failure?: StatusCheckFailure } | undefined {
  const recorded = readStatusCheckFailure(machine.metadata.annotations)
  if (status.verdict === 'passed') return recorded ? { value: null } : undefined
  const instanceId = status.providerID.split('/').pop() ?? ''
  const same = recorded?.instanceId === instanceId
  if (same && recorded.failed.join() === status.failed.join()) return undefined
  const failure: StatusCheckFailure = {
    instanceId,
    failed: status.failed,
    // A change of which checks fail keeps the failure's start: it has not passed in between.
    since: (same ? recorded.since : undefined) ?? status.since ?? now.toISOString(),
  }
  return { value: formatStatusCheckFailure(failure), failure }
}

/**
 * StatusChecksPassed: False while a failure of this instance is recorded (reason
 * `SystemCheckFailed` when the system check is among them, AWS's side and the one to act on
 * first, else `InstanceCheckFailed`), True `ChecksPassed` once it is gone, absent on a Machine
 * that never failed one. Not part of Ready: a MachineHealthCheck decides what a failure is worth
 * (`unhealthyMachineConditions`).
 */
export function statusChecksCondition(machine: CheckedMachine): ConditionInput | undefined {
  const type = statusChecksPassedCondition
  const failure = currentStatusCheckFailure(machine)
  if (failure) {
    const reason = failure.failed.includes('system') ? 'SystemCheckFailed' : 'InstanceCheckFailed'
    return { type, status: 'False', reason, message: describeStatusCheckFailure(failure) }
  }
  const had = machine.status?.conditions?.some((c) => c.type === type)
  return had
    ? { type, status: 'True', reason: 'ChecksPassed', message: 'EC2 status checks pass' }
    : undefined
}
