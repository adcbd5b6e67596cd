/**
 * @module The EC2 notice source: long-polls an SQS queue that EventBridge rules feed (EC2 spot
 * interruption warnings, rebalance recommendations, state changes, AWS Health scheduled changes)
 * and records each notice on its Machine (handle-message.ts). The Machine's own watch then runs its
 * reconcile, whichever bus carries it. A message is deleted only once handled; one that failed
 * stays queued and SQS delivers it again after its visibility timeout (a redrive policy bounds the
 * retries of a message that always fails). Up to 10 messages per poll are handled at once, with
 * one EC2 look-up for the instances they name, so one slow or failing message does not hold up
 * the others; the next poll does not wait for them either: up to `batchesInFlight` polls' messages
 * are handled at once, so a storm of hundreds of warnings is recorded (and cordoned) in parallel
 * instead of ten at a time, within a bound on the apiserver and EC2 calls it makes at once.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import {
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs'
import { Counter, type Registry } from 'prom-client'
import { type Clock, systemClock } from '../../clock'
import { deadlineSignal } from '../../deadline-signal'
import { errorMessage } from '../../errors'
import { type HandleDeps, handleMessages } from './handle-message'

/** What the source needs; `notices` is created on `registry`. */
export interface Ec2NoticeSourceOptions extends Omit<HandleDeps, 'notices' | 'home' | 'clock'> {
  sqs: SQSClient
  /** The queue; its path names the account notices may come from when a Machine's is not known. */
  queueUrl: string
  /** The queue's region, likewise. */
  region: string
  clock?: Clock | undefined
  registry: Registry
  /** Long-poll wait (default 20 s, SQS's maximum). */
  waitSeconds?: number
  /** Pause after a failed poll (default 5 s). */
  retryMs?: number
  /** Bound on handling one poll's messages (default 30 s). */
  messageTimeoutMs?: number
  /** Polls whose messages are handled at once (default 8). */
  batchesInFlight?: number
}

/** A running source. */
export interface Ec2NoticeSource {
  stop(): Promise<void>
}

/** The notice counter, registered on `registry`. */
export function ec2NoticeCounter(registry: Registry): Counter<'reason' | 'outcome'> {
  return new Counter({
    name: 'machine_api_ec2_notices_total',
    help: 'EC2 notices from the queue, by condition reason (none: no notice) and outcome (wrong-source, wrong-account, wrong-region, not-current-instance and too-late: not acted on).',
    labelNames: ['reason', 'outcome'],
    registers: [registry],
  })
}

/** Starts polling; see the module comment. */
export function startEc2NoticeSource(options: Ec2NoticeSourceOptions): Ec2NoticeSource {
  const stopping = new AbortController()
  const deps: HandleDeps = {
    ...options,
    home: { account: queueAccount(options.queueUrl), region: options.region },
    clock: options.clock ?? systemClock,
    notices: ec2NoticeCounter(options.registry),
  }
  const maxInFlight = Math.max(1, options.batchesInFlight ?? 8)
  const inFlight = new Set<Promise<void>>()
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      while (inFlight.size >= maxInFlight) await Promise.race(inFlight)
      try {
        const out = await options.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: options.waitSeconds ?? 20,
          }),
          { abortSignal: stopping.signal },
        )
        const batch = handleAndDelete(options, deps, out.Messages ?? [], stopping.signal)
          .catch((error: unknown) =>
            options.log.warn({ err: errorMessage(error) }, 'EC2 notice batch failed, left queued'),
          )
          .finally(() => inFlight.delete(batch))
        inFlight.add(batch)
      } catch (error) {
        if (stopping.signal.aborted) break
        options.log.warn(
          { err: errorMessage(error), queue: options.queueUrl },
          'EC2 notice queue poll failed',
        )
        await sleep(options.retryMs ?? 5000, undefined, { signal: stopping.signal }).catch(() => {})
      }
    }
    await Promise.all(inFlight)
  })()
  options.log.info({ queue: options.queueUrl }, 'EC2 notice source polling')
  return {
    async stop() {
      stopping.abort()
      await loop
    },
  }
}

/** The account in an SQS queue URL's path (…/<account>/<queue>), or '' when it names none. */
export function queueAccount(queueUrl: string): string {
  return /\/(\d{12})\/[^/]+$/.exec(queueUrl)?.[1] ?? ''
}

async function handleAndDelete(
  options: Ec2NoticeSourceOptions,
  deps: HandleDeps,
  messages: readonly Message[],
  stop: AbortSignal,
): Promise<void> {
  if (messages.length === 0) return
  const deadline = deadlineSignal(options.messageTimeoutMs ?? 30_000, stop)
  const received = messages.map((m) => ({ id: m.MessageId ?? '', body: m.Body ?? '' }))
  const done = await handleMessages(deps, received, deadline.signal).finally(deadline.clear)
  await Promise.all(
    messages.map(async (message, i) => {
      if (!done[i] || !message.ReceiptHandle) return
      try {
        await options.sqs.send(
          new DeleteMessageCommand({
            QueueUrl: options.queueUrl,
            ReceiptHandle: message.ReceiptHandle,
          }),
        )
      } catch (error) {
        // Delivered again later; recording it again is a no-op (a duplicate).
        options.log.warn(
          { messageId: message.MessageId, err: errorMessage(error) },
          'EC2 notice handled, delete failed',
        )
      }
    }),
  )
}
