import { describe, expect, it } from 'vitest'
import { startSweepTimer } from '../../../src/bus/sweep'
import { manualTimers } from './manual-timers'

async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve))
}

describe('startSweepTimer', () => {
  it.each([
    ['sweeps at once, then every period', false, [1, 2, 3]],
    ['with delayFirst, sweeps first after one period', true, [0, 1, 2]],
  ])('%s', async (_, delayFirst, expected) => {
    const timers = manualTimers()
    let runs = 0
    const stop = startSweepTimer({
      periodMs: 1000,
      timers,
      delayFirst,
      run: async () => {
        runs++
      },
    })
    const seen: number[] = []
    for (let i = 0; i < 3; i++) {
      await settle()
      seen.push(runs)
      timers.advance(1000)
    }
    stop()
    expect(seen).toEqual(expected)
  })
})
