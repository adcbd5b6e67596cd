/**
 * @module Dead letters: a message that cannot succeed is copied to the dead-letter stream under the
 * same object suffix, with its reason in headers, and then terminated so it leaves the work queue
 * instead of sitting there undelivered (what `max_deliver` alone would do).
 */
import type { JetStreamClient, JsMsg } from '@nats-io/jetstream'
import { headers } from '@nats-io/transport-node'
import type { JetStreamConfig } from './setup'
import { subjectSuffix } from './subjects'

/** Header names on a dead letter. */
export const deadLetterHeaders = {
  reason: 'Machine-Api-Reason',
  subject: 'Machine-Api-Subject',
  deliveries: 'Machine-Api-Deliveries',
} as const

/** Publishes `msg` to the dead-letter stream with `reason`, then terminates it. */
export async function deadLetter(
  stream: { js: JetStreamClient; config: JetStreamConfig },
  msg: JsMsg,
  reason: string,
): Promise<void> {
  const { js, config } = stream
  const h = headers()
  h.set(deadLetterHeaders.reason, reason)
  h.set(deadLetterHeaders.subject, msg.subject)
  h.set(deadLetterHeaders.deliveries, String(msg.info.deliveryCount))
  const suffix = subjectSuffix(config.subjectPrefix, msg.subject)
  await js.publish(`${config.deadLetterPrefix}.${suffix}`, msg.data, { headers: h })
  msg.term(reason)
}
