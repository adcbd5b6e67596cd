import { describe, expect, it } from 'vitest'
import { createPool } from '../../../src/bus/pool'

describe('pool', () => {
  it('never runs more than its size and finishes everything on drain', async () => {
    const pool = createPool(3)
    let running = 0
    let peak = 0
    let done = 0
    for (let i = 0; i < 20; i++) {
      await pool.submit(async () => {
        running++
        peak = Math.max(peak, running)
        await new Promise((resolve) => setImmediate(resolve))
        running--
        done++
      })
    }
    await pool.drain()
    expect(peak).toBe(3)
    expect(done).toBe(20)
  })

  it('keeps going after a task fails', async () => {
    const pool = createPool(1)
    let ran = false
    await pool.submit(async () => {
      throw new Error('boom')
    })
    await pool.submit(async () => {
      ran = true
    })
    await pool.drain()
    expect(ran).toBe(true)
  })
})
