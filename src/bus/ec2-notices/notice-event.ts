/**
 * @module The CloudEvent the EC2 notice source posts once it recorded a notice on a Machine, when
 * it runs as a Knative source ($K_SINK, set by a ContainerSource or SinkBinding): it names the
 * Machine as a reference, so the reconcile function behind the broker runs that Machine's key
 * (src/bus/cloudevents.ts) without waiting for the ApiServerSource to report the annotation change.
 * A hint like every other event: a lost one costs nothing the watch and the sweep do not cover.
 */
import { CloudEvent, HTTP } from 'cloudevents'
import type { InstanceNotice } from '../../api/instance-notice'

/** The event type; its data is the Machine's ObjectReference plus the notice's reason. */
export const noticeEventType = 'dev.machine-api.ec2.notice'

/** What is posted for `notice` recorded on the Machine `ref`: headers and body (binary mode). */
export function noticeEvent(
  ref: { apiVersion: string; namespace: string; name: string },
  notice: InstanceNotice,
): { headers: Record<string, string>; body: string } {
  const event = new CloudEvent({
    type: noticeEventType,
    source: 'machine-api/ec2-notices',
    // The EventBridge event id + the Machine: a redelivered message posts the same id again.
    id: `${notice.eventId}/${ref.namespace}/${ref.name}`,
    subject: `${ref.namespace}/${ref.name}`,
    datacontenttype: 'application/json',
    data: {
      apiVersion: ref.apiVersion,
      kind: 'Machine',
      namespace: ref.namespace,
      name: ref.name,
      reason: notice.reason,
      instanceId: notice.instanceId,
      ...(notice.deadline ? { deadline: notice.deadline } : {}),
    },
  })
  const message = HTTP.binary(event)
  return {
    headers: message.headers as Record<string, string>,
    body: typeof message.body === 'string' ? message.body : JSON.stringify(message.body),
  }
}

/** Posts `event` to `sink`; rejects on a non-2xx answer. */
export async function postNoticeEvent(
  sink: string,
  event: { headers: Record<string, string>; body: string },
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch(sink, {
    method: 'POST',
    headers: event.headers,
    body: event.body,
    signal,
  })
  if (!response.ok) throw new Error(`sink answered ${response.status}`)
}
