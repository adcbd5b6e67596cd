/**
 * @module The JetStream topology: a work-queue stream with one subject per object and
 * `max_msgs_per_subject: 1` (bursts coalesce in the server), an explicit-ack durable consumer, and
 * a dead-letter stream where poison messages end with their reason.
 * https://docs.nats.io/nats-concepts/jetstream/streams#retentionpolicy
 */
import {
  AckPolicy,
  DiscardPolicy,
  type JetStreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
} from '@nats-io/jetstream'
import { nanos } from '@nats-io/transport-node'

/** Names and limits of the topology (defaults in defaultJetStreamConfig). */
export interface JetStreamConfig {
  stream: string
  subjectPrefix: string
  consumer: string
  deadLetterStream: string
  deadLetterPrefix: string
  /** Failed deliveries before a message is dead-lettered by the worker. */
  maxDeliver: number
  /** Redelivery if a worker neither acks nor naks in time (it crashed or hung). */
  ackWaitMs: number
  /** Server-side delivery cap; defaults to serverMaxDeliver(config). */
  serverMaxDeliver?: number
}

/** The default topology. */
export const defaultJetStreamConfig: JetStreamConfig = {
  stream: 'MACHINE_API_RECONCILE',
  subjectPrefix: 'machine-api.reconcile',
  consumer: 'reconcilers',
  deadLetterStream: 'MACHINE_API_DEAD',
  deadLetterPrefix: 'machine-api.dead',
  maxDeliver: 5,
  ackWaitMs: 120_000,
}

/**
 * The server-side delivery cap: well above the worker's own `maxDeliver`, because delayed requeues
 * (nak with delay) also count as deliveries. It only stops a message that crashes every worker;
 * the max-deliveries advisory then files it as a dead letter.
 */
export function serverMaxDeliver(config: JetStreamConfig): number {
  return config.serverMaxDeliver ?? config.maxDeliver * 20
}

async function exists(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await check()
    return true
  } catch {
    return false
  }
}

/** Creates what `info` does not find; a create that lost the race to another worker is fine. */
async function ensure(info: () => Promise<unknown>, create: () => Promise<unknown>): Promise<void> {
  if (await exists(info)) return
  await create().catch(async (error: unknown) => {
    if (!(await exists(info))) throw error
  })
}

/** A file-backed stream, created when missing. */
function ensureStream(
  jsm: JetStreamManager,
  stream: Partial<StreamConfig> & { name: string },
): Promise<void> {
  return ensure(
    () => jsm.streams.info(stream.name),
    () => jsm.streams.add({ ...stream, storage: StorageType.File }),
  )
}

/** Creates the streams and the consumer when missing (idempotent; concurrent workers may race). */
export async function ensureJetStream(
  jsm: JetStreamManager,
  config: JetStreamConfig,
): Promise<void> {
  await ensureStream(jsm, {
    name: config.stream,
    subjects: [`${config.subjectPrefix}.>`],
    retention: RetentionPolicy.Workqueue,
    max_msgs_per_subject: 1,
    discard: DiscardPolicy.Old,
  })
  await ensureStream(jsm, {
    name: config.deadLetterStream,
    subjects: [`${config.deadLetterPrefix}.>`],
    retention: RetentionPolicy.Limits,
    max_age: nanos(7 * 24 * 3600 * 1000),
  })
  await ensure(
    () => jsm.consumers.info(config.stream, config.consumer),
    () =>
      jsm.consumers.add(config.stream, {
        durable_name: config.consumer,
        ack_policy: AckPolicy.Explicit,
        ack_wait: nanos(config.ackWaitMs),
        max_deliver: serverMaxDeliver(config),
        filter_subject: `${config.subjectPrefix}.>`,
      }),
  )
}
