/**
 * @module Handles the case the worker cannot: a message that crashes or hangs every worker never
 * gets a nak, reaches the server's `max_deliver` and would stay in the work queue undelivered.
 * The server's MAX_DELIVERIES advisory names it; this moves it to the dead-letter stream.
 * https://docs.nats.io/using-nats/developer/develop_jetstream/consumers#dead-letter-queues-type-functionality
 */
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream'
import { headers, type NatsConnection } from '@nats-io/transport-node'
import { errorMessage } from '../../errors'
import type { Logger } from '../../observability/logger'
import { deadLetterHeaders } from './dead-letter'
import type { JetStreamConfig } from './setup'
import { subjectSuffix } from './subjects'

interface MaxDeliveriesAdvisory {
  stream: string
  consumer: string
  stream_seq: number
  deliveries: number
}

/** Subscribes to the advisory for `config`'s consumer; returns an unsubscribe function. */
export function watchMaxDeliveries(deps: {
  nc: NatsConnection
  js: JetStreamClient
  jsm: JetStreamManager
  config: JetStreamConfig
  log: Logger
}): () => void {
  const { config, log } = deps
  const subject = `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${config.stream}.${config.consumer}`
  const sub = deps.nc.subscribe(subject, {
    callback: (error, msg) => {
      if (error) return
      void (async () => {
        const advisory = msg.json<MaxDeliveriesAdvisory>()
        const stored = await deps.jsm.streams.getMessage(config.stream, {
          seq: advisory.stream_seq,
        })
        if (!stored) return
        const h = headers()
        h.set(deadLetterHeaders.reason, 'MaxDeliveries')
        h.set(deadLetterHeaders.subject, stored.subject)
        h.set(deadLetterHeaders.deliveries, String(advisory.deliveries))
        const suffix = subjectSuffix(config.subjectPrefix, stored.subject)
        await deps.js.publish(`${config.deadLetterPrefix}.${suffix}`, stored.data, { headers: h })
        await deps.jsm.streams.deleteMessage(config.stream, advisory.stream_seq)
        log.warn(
          { subject: stored.subject, deliveries: advisory.deliveries },
          'dead-lettered after max deliveries',
        )
      })().catch((e: unknown) =>
        log.error({ err: errorMessage(e) }, 'max-deliveries handling failed'),
      )
    },
  })
  return () => sub.unsubscribe()
}
