/**
 * @module The Machine's side of EC2 notices (src/api/instance-notice.ts): which recorded notice
 * applies to it, and the InstanceHealthy condition that says so. Pure.
 */
import {
  describeInstanceNotice,
  type InstanceNotice,
  readInstanceNotice,
} from '../../api/instance-notice'
import type { ConditionInput } from '../shared/conditions'

/** InstanceHealthy for a recorded notice: False, the message naming the event time and deadline. */
export function instanceNoticeCondition(notice: InstanceNotice): ConditionInput {
  return {
    type: 'InstanceHealthy',
    status: 'False',
    reason: notice.reason,
    message: describeInstanceNotice(notice),
  }
}

/**
 * The notice that applies to `machine`: recorded, and about the instance its providerID names
 * (a notice about an instance it no longer has is history, not its health).
 */
export function currentInstanceNotice(machine: {
  metadata: { annotations?: Record<string, string> | undefined }
  spec: { providerID?: string | undefined }
}): InstanceNotice | undefined {
  const notice = readInstanceNotice(machine.metadata.annotations)
  const providerID = machine.spec.providerID
  if (!notice || (providerID && !providerID.endsWith(`/${notice.instanceId}`))) return undefined
  return notice
}
