import { describe, expect, it } from 'vitest'
import { eventName } from '../../../src/kube/event-recorder'

const event = {
  regarding: { kind: 'Machine', metadata: { namespace: 'ns', name: 'm', uid: 'u1' } },
  type: 'Warning' as const,
  reason: 'Throttled',
  message: 'slow down',
  reportingController: 'machine-api',
}

describe('eventName', () => {
  it('is the same for the same Event, whatever the object resourceVersion', () => {
    const later = {
      ...event,
      regarding: {
        ...event.regarding,
        metadata: { ...event.regarding.metadata, resourceVersion: '9' },
      },
    }
    expect(eventName(later)).toBe(eventName(event))
    expect(eventName(event)).toMatch(/^m\.[0-9a-f]{16}$/)
  })

  it.each([
    ['another message', { message: 'slower' }],
    ['another reason', { reason: 'Unauthorized' }],
    ['another type', { type: 'Normal' as const }],
    [
      'another object with the same name',
      { regarding: { ...event.regarding, metadata: { ...event.regarding.metadata, uid: 'u2' } } },
    ],
  ])('differs for %s', (_name, change) => {
    expect(eventName({ ...event, ...change })).not.toBe(eventName(event))
  })

  it('stays a valid name for a long object name', () => {
    const long = { ...event, regarding: { metadata: { name: 'x'.repeat(253) } } }
    expect(eventName(long).length).toBeLessThanOrEqual(253)
  })
})
