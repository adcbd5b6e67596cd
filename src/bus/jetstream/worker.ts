/**
 * @module The JetStream worker: pulls object hints from the work-queue consumer, runs them through
 * the runner and settles each message: ack when done (or failed permanently, which is recorded on
 * the object), `nak(delay)` for requeueAfter and transient errors, and a dead letter once a message
 * has failed `maxDeliver` times or names no object.
 */
import type { JetStreamClient, JsMsg } from '@nats-io/jetstream'
import { errorMessage } from '../../errors'
import { formatKey, type ObjectKey } from '../../kube/object-key'
import type { Logger } from '../../observability/logger'
import type { RuntimeMetrics } from '../../observability/runtime-metrics'
import { createPool } from '../../pool'
import type { Runner, RunOutcome } from '../run-outcome'
import type { OwnChangeWake } from '../wake'
import { deadLetter } from './dead-letter'
import { createKeySlots } from './key-slots'
import { wakeOfMessage } from './publisher'
import type { JetStreamConfig } from './setup'
import { keyFromSubject } from './subjects'

/** Options of startJetStreamWorker. */
export interface JetStreamWorkerOptions {
  js: JetStreamClient
  config: JetStreamConfig
  runner: Runner
  log: Logger
  metrics?: RuntimeMetrics | undefined
  /** Messages processed at once (default 8). */
  concurrency?: number
  /** Observes every settled message (tests, debugging). */
  onSettled?: (event: {
    key: ObjectKey | undefined
    outcome: RunOutcome | undefined
    deliveryCount: number
  }) => void
}

/** A running worker. */
export interface JetStreamWorker {
  stop(): Promise<void>
}

/** Starts consuming; resolves once the consumer is attached. */
export async function startJetStreamWorker(
  options: JetStreamWorkerOptions,
): Promise<JetStreamWorker> {
  const { js, config, log } = options
  const concurrency = options.concurrency ?? 8
  const consumer = await js.consumers.get(config.stream, config.consumer)
  const messages = await consumer.consume({ max_messages: concurrency * 2 })
  const pool = createPool(concurrency)

  async function settle(msg: JsMsg, wake: OwnChangeWake | undefined): Promise<void> {
    const key = keyFromSubject(config.subjectPrefix, msg.subject)
    const deliveryCount = msg.info.deliveryCount
    if (!key) {
      await deadLetter({ js, config }, msg, 'InvalidSubject')
      options.onSettled?.({ key, outcome: undefined, deliveryCount })
      return
    }
    const outcome = await options.runner.run(key, undefined, undefined, wake)
    switch (outcome.type) {
      case 'done':
      case 'skipped':
      case 'permanent':
        msg.ack()
        break
      case 'requeue':
        msg.nak(outcome.afterMs)
        break
      case 'retry':
        if (deliveryCount >= config.maxDeliver) {
          log.warn({ key: formatKey(key), reason: outcome.reason, deliveryCount }, 'dead-lettered')
          await deadLetter({ js, config }, msg, outcome.reason)
        } else {
          msg.nak(outcome.afterMs)
        }
        break
    }
    options.onSettled?.({ key, outcome, deliveryCount })
  }

  const slots = createKeySlots(async (msg, wake) => {
    try {
      await settle(msg, wake)
    } catch (error) {
      // Leave the message unacked: ack_wait redelivers it, and the max-deliver cap still applies.
      log.error({ subject: msg.subject, err: errorMessage(error) }, 'settling a message failed')
    }
  })

  const loop = (async () => {
    for await (const msg of messages) {
      options.metrics?.hints.inc({ transport: 'jetstream' })
      await pool.submit(() => slots.offer(msg.subject, msg, wakeOfMessage(msg)))
    }
  })()

  return {
    async stop() {
      await messages.close()
      await loop.catch(() => undefined)
      await pool.drain()
    },
  }
}
