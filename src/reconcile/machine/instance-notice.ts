/**
 * @module The Machine's side of EC2 notices (src/api/instance-notice.ts): the InstanceHealthy
 * condition that says which recorded notice applies to it (reconcile/shared/interruption.ts). Pure.
 */
import { describeInstanceNotice, type InstanceNotice } from '../../api/instance-notice'
import type { ConditionInput } from '../shared/conditions'

export { currentInstanceNotice } from '../shared/interruption'

/** InstanceHealthy for a recorded notice: False, the message naming the event time and deadline. */
export function instanceNoticeCondition(notice: InstanceNotice): ConditionInput {
  return {
    type: 'InstanceHealthy',
    status: 'False',
    reason: notice.reason,
    message: describeInstanceNotice(notice),
  }
}
