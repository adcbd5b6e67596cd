/**
 * The worker's apiserver readiness check: false while the apiserver does not answer (refused,
 * hanging, 5xx), true again once it answers, one probe per cache period however often /readyz runs.
 */
import { describe, expect, it } from 'vitest'
import { KubeApiError } from '../../../src/kube/errors'
import { apiserverCheck } from '../../../src/observability/apiserver-check'
import { manualTimers } from '../bus/manual-timers'

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' })

function probeSequence(results: Array<'ok' | 'refused' | 'hang' | number>) {
  let calls = 0
  const probe = () => {
    const result = results[Math.min(calls, results.length - 1)]
    calls++
    if (result === 'ok') return Promise.resolve()
    if (result === 'refused') return Promise.reject(refused())
    if (result === 'hang') return new Promise(() => {})
    return Promise.reject(
      new KubeApiError({ code: result as number, reason: 'Unknown', message: 'x' }),
    )
  }
  return { probe, calls: () => calls }
}

describe('apiserverCheck', () => {
  it.each([
    ['an answer', 'ok', true],
    ['a refused connection', 'refused', false],
    ['a 403 (the apiserver is up)', 403, true],
    ['a 503 (the apiserver cannot serve)', 503, false],
  ] as const)('after %s it reports %s', async (_, result, expected) => {
    const { probe } = probeSequence([result])
    const check = apiserverCheck({ probe, timers: manualTimers() })
    expect(await check()).toBe(expected)
  })

  it('reports false when the probe hangs past the timeout', async () => {
    const timers = manualTimers()
    const { probe } = probeSequence(['hang'])
    const check = apiserverCheck({ probe, timers, timeoutMs: 3000 })
    const pending = check()
    timers.advance(3000)
    expect(await pending).toBe(false)
  })

  it('turns false during an outage and true again after it, probing once per cache period', async () => {
    const timers = manualTimers()
    const { probe, calls } = probeSequence(['ok', 'refused', 'refused', 'ok'])
    const check = apiserverCheck({ probe, timers, cacheMs: 1000 })
    expect(await check()).toBe(true)
    expect(await Promise.all([check(), check()])).toEqual([true, true])
    expect(calls()).toBe(1)
    timers.advance(1000)
    expect(await check()).toBe(false)
    timers.advance(1000)
    expect(await check()).toBe(false)
    timers.advance(1000)
    expect(await check()).toBe(true)
    expect(calls()).toBe(4)
  })

  it('shares one probe between concurrent calls', async () => {
    const { probe, calls } = probeSequence(['ok'])
    const check = apiserverCheck({ probe, timers: manualTimers() })
    expect(await Promise.all([check(), check(), check()])).toEqual([true, true, true])
    expect(calls()).toBe(1)
  })
})
