/**
 * @module Per-key slots inside one worker: one message per key runs, at most one waits behind it,
 * and a newer message for a waiting key replaces (and acks) the older one. With the stream's
 * per-subject limit this bounds a burst for one object to two reconciles.
 */
import type { JsMsg } from '@nats-io/jetstream'

/** Runs `handle` for messages, never two for the same key at once. */
export interface KeySlots {
  /** Runs `msg` now, or parks it behind the key's running message (superseding a parked one). */
  offer(id: string, msg: JsMsg): Promise<void>
}

/** Creates slots that call `handle` for every message that is not superseded. */
export function createKeySlots(handle: (msg: JsMsg) => Promise<void>): KeySlots {
  const parked = new Map<string, JsMsg>()
  const running = new Set<string>()

  async function drive(id: string, first: JsMsg): Promise<void> {
    running.add(id)
    let msg: JsMsg | undefined = first
    try {
      while (msg) {
        await handle(msg)
        msg = parked.get(id)
        parked.delete(id)
      }
    } finally {
      running.delete(id)
    }
  }

  return {
    async offer(id, msg) {
      if (!running.has(id)) {
        await drive(id, msg)
        return
      }
      // The newer hint makes the parked one redundant: the reconcile re-reads the object anyway.
      parked.get(id)?.ack()
      parked.set(id, msg)
    },
  }
}
