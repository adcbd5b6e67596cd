/**
 * The Event recorder against a real apiserver: the same Event recorded again is counted on the
 * existing one (count and lastTimestamp, as `kubectl get events` shows "x N"), concurrent repeats
 * included; an Event that says something else is a new one.
 */
import type { KubeConfig } from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { testKubeConfig, testNamespace } from '../../harness/kube'
import { testKube } from '../runtime/widget'

type EventObject = KubeObject & { count?: number; reason?: string; message?: string }

let kc: KubeConfig
let kube: KubeClient
let namespace = ''

beforeAll(() => {
  kc = testKubeConfig()
  kube = testKube(kc)
})

afterAll(() => kube.close())

function regarding(name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace, name, uid: `uid-${name}` },
  }
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
    const event = {
      regarding: regarding('retried'),
      type: 'Warning' as const,
      reason: 'Throttled',
      message: 'EC2 TerminateInstances: RequestLimitExceeded',
      reportingController: 'machine-api-test',
    }
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
    const event = {
      regarding: regarding('burst'),
      type: 'Normal' as const,
      reason: 'Scaled',
      message: 'same words',
      reportingController: 'machine-api-test',
    }
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
