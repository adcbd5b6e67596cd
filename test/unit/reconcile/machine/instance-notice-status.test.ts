import { describe, expect, it } from 'vitest'
import {
  formatInstanceNotice,
  type InstanceNotice,
  instanceNoticeAnnotation,
} from '../../../../src/api/instance-notice'
import { computeMachineStatus } from '../../../../src/reconcile/machine/status'
import { machine, now, observed, readyNode } from './builders'

const notice: InstanceNotice = {
  reason: 'SpotInterruption',
  instanceId: 'i-0aaaaaaaaaaaaaaaa',
  eventId: 'e1',
  time: '2026-12-02T11:59:00.000Z',
  deadline: '2026-12-02T12:01:00.000Z',
  detail: 'action terminate',
}
const annotations = { [instanceNoticeAnnotation]: formatInstanceNotice(notice) }
const linked = { state: 'found' as const, node: readyNode, linked: true }

function instanceHealthy(m: ReturnType<typeof machine>) {
  const status = computeMachineStatus(observed(m, { node: linked }), { events: [] }, now)
  return {
    healthy: status.conditions?.find((c) => c.type === 'InstanceHealthy'),
    ready: status.conditions?.find((c) => c.type === 'Ready'),
  }
}

describe('InstanceHealthy from a recorded EC2 notice', () => {
  it('is False with the notice as reason, naming the instance, the event time and the deadline', () => {
    const { healthy, ready } = instanceHealthy(
      machine({ annotations, providerID: 'aws:///eu-west-1a/i-0aaaaaaaaaaaaaaaa' }),
    )
    expect(healthy).toMatchObject({ status: 'False', reason: 'SpotInterruption' })
    expect(healthy?.message).toContain('i-0aaaaaaaaaaaaaaaa')
    expect(healthy?.message).toContain('2026-12-02T11:59:00.000Z')
    expect(healthy?.message).toContain('2026-12-02T12:01:00.000Z')
    expect(ready).toMatchObject({ status: 'True' })
  })

  it('is absent on a Machine that never had a notice', () => {
    expect(
      instanceHealthy(machine({ providerID: 'aws:///eu-west-1a/i-0c' })).healthy,
    ).toBeUndefined()
  })

  it('turns True once the Machine has another instance than the notice named', () => {
    const previous = {
      conditions: [
        {
          type: 'InstanceHealthy',
          status: 'False' as const,
          reason: 'SpotInterruption',
          message: '',
          lastTransitionTime: '2026-12-02T11:59:00Z',
        },
      ],
    }
    const m = machine({
      annotations,
      providerID: 'aws:///eu-west-1a/i-0bbbbbbbbbbbbbbbb',
      status: previous,
    })
    expect(instanceHealthy(m).healthy).toMatchObject({ status: 'True', reason: 'NoNotice' })
  })
})
