import { describe, expect, it } from 'vitest'
import {
  formatInstanceNotice,
  type InstanceNotice,
  instanceNoticeAnnotation,
} from '../../../../src/api/instance-notice'
import {
  currentInstanceNotice,
  interruptionOf,
} from '../../../../src/reconcile/shared/interruption'

const instanceId = 'i-0aaaaaaaaaaaaaaaa'
const machineWith = (notice: InstanceNotice) => ({
  metadata: { annotations: { [instanceNoticeAnnotation]: formatInstanceNotice(notice) } },
  spec: { providerID: `aws:///eu-west-1a/${instanceId}` },
})
const maintenance: InstanceNotice = {
  reason: 'ScheduledMaintenance',
  instanceId,
  eventId: 'h1',
  time: '2026-11-20T12:00:00.000Z',
  deadline: '2026-11-27T09:00:00.000Z',
  windowEnd: '2026-11-27T11:00:00.000Z',
  detail: 'AWS_EC2_SYSTEM_REBOOT_MAINTENANCE_SCHEDULED',
}
const spot: InstanceNotice = {
  reason: 'SpotInterruption',
  instanceId,
  eventId: 'e1',
  time: '2026-11-27T09:00:00.000Z',
  deadline: '2026-11-27T09:02:00.000Z',
}

describe('interruptionOf: a recorded notice counts until its moment and a grace, then is history', () => {
  it.each<[string, InstanceNotice, string, boolean]>([
    [
      'a maintenance during its window bounds the drain',
      maintenance,
      '2026-11-27T10:00:00.000Z',
      true,
    ],
    [
      'a maintenance just after its window still does',
      maintenance,
      '2026-11-27T11:10:00.000Z',
      true,
    ],
    // A week after a reboot maintenance the instance survived: a deletion then drains as usual.
    [
      'a maintenance a week after its window does not',
      maintenance,
      '2026-12-04T11:00:00.000Z',
      false,
    ],
    ['a spot warning within its grace', spot, '2026-11-27T09:10:00.000Z', true],
    ['a spot warning the instance outlived by a day', spot, '2026-11-28T09:00:00.000Z', false],
    [
      'a stop two weeks ago, the instance since started again',
      { ...spot, reason: 'InstanceStopping', deadline: undefined },
      '2026-12-11T09:00:00.000Z',
      false,
    ],
  ])('%s', (_what, notice, now, applies) => {
    const machine = machineWith(notice)
    const interruption = interruptionOf(machine, 'Replace', new Date(now))
    expect(interruption !== undefined).toBe(applies)
    expect(currentInstanceNotice(machine, new Date(now)) !== undefined).toBe(applies)
  })

  it('a rebalance recommendation names no moment and counts until the instance is replaced', () => {
    const rebalance = { ...spot, reason: 'RebalanceRecommended' as const, deadline: undefined }
    const machine = machineWith(rebalance)
    expect(interruptionOf(machine, 'Replace', new Date('2027-01-01T00:00:00Z'))).toBeDefined()
  })
})
