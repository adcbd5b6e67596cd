import { describe, expect, it } from 'vitest'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { testNamespace } from '../../harness/kube'
import { useWidgetKube } from '../runtime/widget'

type EventObject = KubeObject & { count?: number; reason?: string; message?: string }

const { kc, kube } = useWidgetKube()
let namespace = ''

/** An Event of this test's controller about the ConfigMap `name` of the test's namespace. */
function eventAbout(
  name: string,
  what: { type: 'Normal' | 'Warning'; reason: string; message: string },
) {
  const regarding: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace, name, uid: `uid-${name}` },
  }
  return { regarding, ...what, reportingController: 'machine-api-test' }
}

async function eventsAbout(name: string): Promise<EventObject[]> {
  const list = await kube.list<EventObject>(coreTypes.event, { namespace })
  return list.items.filter(
    (e) => (e as { involvedObject?: { name?: string } }).involvedObject?.name === name,
  )
}

describe('recordEvent', () => {
  it('counts a repeated Event instead of adding one, and keeps different ones apart', async () => {
    namespace = await testNamespace(kc, 'events')
    const event = eventAbout('retried', {
      type: 'Warning',
      reason: 'Throttled',
      message: 'EC2 TerminateInstances: RequestLimitExceeded',
    })
    for (let i = 0; i < 3; i++) await kube.recordEvent(event)
    await kube.recordEvent({ ...event, reason: 'Unauthorized', message: 'check credentials' })

    const events = await eventsAbout('retried')
    expect(events.map((e) => [e.reason, e.count]).sort()).toEqual([
      ['Throttled', 3],
      ['Unauthorized', 1],
    ])
  })

  it('counts concurrent repeats on one Event', async () => {
    namespace = await testNamespace(kc, 'events')
    const event = eventAbout('burst', { type: 'Normal', reason: 'Scaled', message: 'same words' })
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => kube.recordEvent(event)),
    )
    const recorded = results.filter((r) => r.status === 'fulfilled').length
    const events = await eventsAbout('burst')
    expect(events).toHaveLength(1)
    // A repeat that lost an optimistic-concurrency race is reported to the caller, never doubled.
    expect(events[0]?.count).toBe(recorded)
  })
})
