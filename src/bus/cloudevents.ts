/**
 * @module Reads CloudEvents from Knative sources into hints. ApiServerSource sends
 * `dev.knative.apiserver.ref.*` (Reference mode: data is an ObjectReference) or
 * `dev.knative.apiserver.resource.*` (Resource mode: data is the object); PingSource sends
 * `dev.knative.sources.ping` (a sweep tick); the EC2 notice source sends `dev.machine-api.ec2.notice`
 * (data: the Machine's ObjectReference), read as a reference change. Both binary and structured
 * HTTP modes are accepted.
 * https://knative.dev/docs/eventing/sources/apiserversource/
 */
import { type CloudEventV1, HTTP } from 'cloudevents'
import type { KubeObject } from '../kube/resource'

/** What an event asks for: reconcile what a change touches, or sweep everything. */
export type Hint =
  /**
   * `object` is the full object (Resource mode) or just its name/namespace (Reference mode);
   * `deleted` when the event reports its deletion.
   */
  | {
      type: 'change'
      kind: string
      apiVersion: string
      object: KubeObject
      full: boolean
      deleted: boolean
    }
  | { type: 'sweep' }
  /** An event type we do not handle: acknowledged and ignored. */
  | { type: 'ignored'; eventType: string }

const refPrefix = 'dev.knative.apiserver.ref.'
const resourcePrefix = 'dev.knative.apiserver.resource.'
const pingType = 'dev.knative.sources.ping'
// src/bus/ec2-notices/notice-event.ts; not imported, so this module stays free of the source.
const noticeType = 'dev.machine-api.ec2.notice'

/** Thrown for a request that is not a valid CloudEvent or lacks what its type promises. */
export class BadEventError extends Error {
  override readonly name = 'BadEventError'
}

function dataObject(event: CloudEventV1<unknown>): Record<string, unknown> {
  let data: unknown = event.data
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data)
    } catch {
      throw new BadEventError(`event ${event.id}: data is not JSON`)
    }
  }
  if (data instanceof Uint8Array) data = JSON.parse(Buffer.from(data).toString('utf8'))
  if (typeof data !== 'object' || data === null) {
    throw new BadEventError(`event ${event.id}: data is not an object`)
  }
  return data as Record<string, unknown>
}

/** The hint in one CloudEvent. Throws BadEventError when the data does not name an object. */
export function hintFromEvent(event: CloudEventV1<unknown>): Hint {
  if (event.type === pingType) return { type: 'sweep' }
  const reference = event.type.startsWith(refPrefix) || event.type === noticeType
  if (!reference && !event.type.startsWith(resourcePrefix)) {
    return { type: 'ignored', eventType: event.type }
  }
  const data = dataObject(event)
  const deleted = event.type.endsWith('.delete')
  if (reference) {
    const { kind, apiVersion, name, namespace } = data as Record<string, unknown>
    if (typeof kind !== 'string' || typeof name !== 'string') {
      throw new BadEventError(`event ${event.id}: reference without kind and name`)
    }
    const metadata = typeof namespace === 'string' && namespace ? { name, namespace } : { name }
    return {
      type: 'change',
      kind,
      apiVersion: typeof apiVersion === 'string' ? apiVersion : '',
      object: { metadata },
      full: false,
      deleted,
    }
  }
  const object = data as KubeObject
  if (typeof object.kind !== 'string' || typeof object.metadata?.name !== 'string') {
    throw new BadEventError(`event ${event.id}: resource without kind and metadata.name`)
  }
  return {
    type: 'change',
    kind: object.kind,
    apiVersion: object.apiVersion ?? '',
    object,
    full: true,
    deleted,
  }
}

/** The hints in an HTTP request (binary or structured mode; a batch yields several). */
export function hintsFromHttp(headers: Record<string, string>, body: string): Hint[] {
  let events: CloudEventV1<unknown> | CloudEventV1<unknown>[]
  try {
    events = HTTP.toEvent({ headers, body })
  } catch (error) {
    throw new BadEventError(`not a CloudEvent: ${error instanceof Error ? error.message : error}`)
  }
  return (Array.isArray(events) ? events : [events]).map(hintFromEvent)
}
