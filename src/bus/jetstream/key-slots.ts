/**
 * @module Per-key slots inside one worker: one message per key runs, at most one waits behind it,
 * and a newer message for a waiting key replaces (and acks) the older one. With the stream's
 * per-subject limit this bounds a burst for one object to two reconciles. The waiting message
 * keeps the wake of both (wake.ts): a change of the key's own object replacing another cause
 * must not make the run look like a wake by its own write alone.
 */
import type { JsMsg } from '@nats-io/jetstream'
import { mergeWakes, type OwnChangeWake } from '../wake'

/** Runs `handle` for messages, never two for the same key at once. */
export interface KeySlots {
  /**
   * Runs `msg` (woken by `wake`) now, or parks it behind the key's running message (superseding
   * a parked one).
   */
  offer(id: string, msg: JsMsg, wake?: OwnChangeWake): Promise<void>
}

interface Slot {
  msg: JsMsg
  wake: OwnChangeWake | undefined
}

/** Creates slots that call `handle` for every message that is not superseded. */
export function createKeySlots(
  handle: (msg: JsMsg, wake: OwnChangeWake | undefined) => Promise<void>,
): KeySlots {
  const parked = new Map<string, Slot>()
  const running = new Set<string>()

  async function drive(id: string, first: Slot): Promise<void> {
    running.add(id)
    let next: Slot | undefined = first
    try {
      while (next) {
        await handle(next.msg, next.wake)
        next = parked.get(id)
        parked.delete(id)
      }
    } finally {
      running.delete(id)
    }
  }

  return {
    async offer(id, msg, wake) {
      if (!running.has(id)) {
        await drive(id, { msg, wake })
        return
      }
      // The newer hint makes the parked one redundant: the reconcile re-reads the object anyway.
      const previous = parked.get(id)
      previous?.msg.ack()
      parked.set(id, { msg, wake: previous ? mergeWakes(previous.wake, wake) : wake })
    },
  }
}
