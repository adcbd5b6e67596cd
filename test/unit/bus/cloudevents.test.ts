import { CloudEvent, HTTP } from 'cloudevents'
import { describe, expect, it } from 'vitest'
import { BadEventError, hintFromEvent, hintsFromHttp } from '../../../src/bus/cloudevents'
import { noticeEvent, noticeEventType } from '../../../src/bus/ec2-notices/notice-event'

const source = 'https://10.96.0.1:443'
const machine = {
  apiVersion: 'machine-api.dev/v1beta1',
  kind: 'Machine',
  metadata: { namespace: 'ns', name: 'm-1', labels: { pool: 'a' } },
}
const reference = {
  apiVersion: 'machine-api.dev/v1beta1',
  kind: 'Machine',
  namespace: 'ns',
  name: 'm-1',
}

function event(type: string, data: unknown): CloudEvent<unknown> {
  return new CloudEvent({
    type,
    source,
    subject: '/apis/machine-api.dev/v1beta1/namespaces/ns/machines/m-1',
    data,
  })
}

function asHttp(ce: CloudEvent<unknown>, mode: 'binary' | 'structured') {
  const message = mode === 'binary' ? HTTP.binary(ce) : HTTP.structured(ce)
  return { headers: message.headers as Record<string, string>, body: String(message.body) }
}

describe('ApiServerSource and PingSource events', () => {
  it.each(['binary', 'structured'] as const)('reads a Reference-mode event in %s mode', (mode) => {
    const http = asHttp(event('dev.knative.apiserver.ref.update', reference), mode)
    expect(hintsFromHttp(http.headers, http.body)).toEqual([
      {
        type: 'change',
        kind: 'Machine',
        apiVersion: 'machine-api.dev/v1beta1',
        object: { metadata: { namespace: 'ns', name: 'm-1' } },
        full: false,
        deleted: false,
      },
    ])
  })

  it.each(['binary', 'structured'] as const)('reads a Resource-mode event in %s mode', (mode) => {
    const http = asHttp(event('dev.knative.apiserver.resource.add', machine), mode)
    expect(hintsFromHttp(http.headers, http.body)).toEqual([
      {
        type: 'change',
        kind: 'Machine',
        apiVersion: 'machine-api.dev/v1beta1',
        object: machine,
        full: true,
        deleted: false,
      },
    ])
  })

  it('reads a cluster-scoped reference without a namespace', () => {
    const hint = hintFromEvent(
      event('dev.knative.apiserver.ref.delete', { apiVersion: 'v1', kind: 'Node', name: 'n1' }),
    )
    expect(hint).toMatchObject({ kind: 'Node', object: { metadata: { name: 'n1' } } })
  })

  it('turns a PingSource tick into a sweep', () => {
    expect(hintFromEvent(event('dev.knative.sources.ping', { any: 'thing' }))).toEqual({
      type: 'sweep',
    })
  })

  it('ignores event types it does not know', () => {
    expect(hintFromEvent(event('com.example.other', {}))).toEqual({
      type: 'ignored',
      eventType: 'com.example.other',
    })
  })

  it.each([
    ['a reference without a name', event('dev.knative.apiserver.ref.add', { kind: 'Machine' })],
    [
      'a resource without metadata',
      event('dev.knative.apiserver.resource.add', { kind: 'Machine' }),
    ],
  ])('rejects %s', (_situation, ce) => {
    expect(() => hintFromEvent(ce)).toThrow(BadEventError)
  })

  it('rejects a request that is not a CloudEvent', () => {
    expect(() => hintsFromHttp({ 'content-type': 'application/json' }, '{}')).toThrow(BadEventError)
  })
})

describe('the EC2 notice source event', () => {
  it('names the Machine the notice was recorded on, read as a reference change', () => {
    const posted = noticeEvent(
      { apiVersion: 'machine-api.dev/v1beta1', namespace: 'ns', name: 'm-1' },
      {
        reason: 'SpotInterruption',
        instanceId: 'i-0aaaaaaaaaaaaaaaa',
        eventId: 'e-1',
        time: '2026-12-04T10:00:00.000Z',
        deadline: '2026-12-04T10:02:00.000Z',
      },
    )
    expect(hintsFromHttp(posted.headers, posted.body)).toEqual([
      {
        type: 'change',
        kind: 'Machine',
        apiVersion: 'machine-api.dev/v1beta1',
        object: { metadata: { namespace: 'ns', name: 'm-1' } },
        full: false,
        deleted: false,
      },
    ])
    expect(posted.headers['ce-type']).toBe(noticeEventType)
  })
})
