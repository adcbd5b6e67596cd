import { describe, expect, it } from 'vitest'
import { createPool, mapConcurrently } from '../../src/pool'

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

describe('mapConcurrently', () => {
  it('keeps the order of the items and never runs more than the limit', async () => {
    let running = 0
    let peak = 0
    const out = await mapConcurrently([5, 1, 4, 2, 3], 2, async (n) => {
      running++
      peak = Math.max(peak, running)
      for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve))
      running--
      return n * 10
    })
    expect(out).toEqual([50, 10, 40, 20, 30])
    expect(peak).toBe(2)
  })

  it('attempts every item and then throws the first failure', async () => {
    const attempted: number[] = []
    const run = mapConcurrently([1, 2, 3], 1, async (n) => {
      attempted.push(n)
      if (n === 2) throw new Error(`item ${n}`)
      return n
    })
    await expect(run).rejects.toThrow('item 2')
    expect(attempted).toEqual([1, 2, 3])
  })
})
