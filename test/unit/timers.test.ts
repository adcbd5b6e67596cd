import { describe, expect, it } from 'vitest'
import { clampTimerMs, maxTimerMs, realTimers } from '../../src/timers'

describe('timers', () => {
  it('clamps a delay to what setTimeout holds', () => {
    const hours720 = 720 * 3600_000
    expect(hours720).toBeGreaterThan(maxTimerMs)
    expect(clampTimerMs(hours720)).toBe(maxTimerMs)
    expect(clampTimerMs(Number.POSITIVE_INFINITY)).toBe(maxTimerMs)
    expect(clampTimerMs(1500)).toBe(1500)
    expect(clampTimerMs(-5)).toBe(0)
    expect(clampTimerMs(Number.NaN)).toBe(0)
  })

  it('schedules a 720h timer without an overflow warning and without firing it soon', async () => {
    const warnings: string[] = []
    const onWarning = (warning: Error) => warnings.push(warning.name)
    process.on('warning', onWarning)
    let fired = false
    const cancel = realTimers().setTimer(720 * 3600_000, () => {
      fired = true
    })
    // Unclamped, Node fires it after 1 ms and warns on the next tick.
    await new Promise((resolve) => setTimeout(resolve, 50))
    cancel()
    process.off('warning', onWarning)
    expect(warnings).not.toContain('TimeoutOverflowWarning')
    expect(fired).toBe(false)
  })
})
