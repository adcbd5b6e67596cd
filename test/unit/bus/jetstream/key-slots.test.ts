import type { JsMsg } from '@nats-io/jetstream'
import { describe, expect, it } from 'vitest'
import { createKeySlots } from '../../../../src/bus/jetstream/key-slots'

/** The only part of a message the slots touch: ack() and an identity. */
function message(seq: number) {
  const msg = { seq, acked: false, ack: () => {} }
  msg.ack = () => {
    msg.acked = true
  }
  return msg
}

describe('per-key slots', () => {
  it('runs one message per key, parks the newest behind it and acks the superseded ones', async () => {
    const handled: number[] = []
    let release: () => void = () => {}
    const slots = createKeySlots(async (msg) => {
      const seq = (msg as unknown as { seq: number }).seq
      handled.push(seq)
      if (seq === 1) await new Promise<void>((resolve) => (release = resolve))
    })
    const msgs = [1, 2, 3, 4].map(message)
    const first = slots.offer('k', msgs[0] as unknown as JsMsg)
    for (const m of msgs.slice(1)) await slots.offer('k', m as unknown as JsMsg)
    expect(handled).toEqual([1])
    release()
    await first
    expect(handled).toEqual([1, 4])
    expect(msgs.map((m) => m.acked)).toEqual([false, true, true, false])
  })

  it('runs different keys independently', async () => {
    const handled: string[] = []
    const slots = createKeySlots(async (msg) => {
      handled.push((msg as unknown as { key: string }).key)
    })
    await Promise.all(['a', 'b'].map((key) => slots.offer(key, { key } as unknown as JsMsg)))
    expect(handled.sort()).toEqual(['a', 'b'])
  })
})
