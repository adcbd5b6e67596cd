import v8 from 'node:v8'
import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { deadlineSignal } from '../../src/deadline-signal'

v8.setFlagsFromString('--expose-gc')
const collectGarbage = vm.runInNewContext('gc') as () => void

/** Resolves with its reason once `signal` aborts, or with 'never' after `ms`. */
function abortedWithin(signal: AbortSignal, ms: number): Promise<unknown> {
  if (signal.aborted) return Promise.resolve(signal.reason)
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('never'), ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve(signal.reason)
    })
  })
}

describe('deadlineSignal', () => {
  it('fires its deadline even after a garbage collection (AbortSignal.any with AbortSignal.timeout does not)', async () => {
    const parent = new AbortController()
    const { signal } = deadlineSignal(50, parent.signal)
    const aborted = abortedWithin(signal, 2_000)
    collectGarbage()
    setTimeout(collectGarbage, 10)
    const reason = await aborted
    expect(reason).toBeInstanceOf(DOMException)
    expect((reason as DOMException).name).toBe('TimeoutError')
  })

  it("follows its parent's abort, with the parent's reason", async () => {
    const parent = new AbortController()
    const { signal } = deadlineSignal(60_000, parent.signal)
    parent.abort(new Error('reconcile abandoned'))
    expect(await abortedWithin(signal, 1_000)).toEqual(new Error('reconcile abandoned'))
  })

  it('is aborted at once under a parent that already was', () => {
    const parent = new AbortController()
    parent.abort(new Error('gone'))
    expect(deadlineSignal(60_000, parent.signal).signal.aborted).toBe(true)
  })

  it('once cleared, neither its deadline nor its parent aborts it', async () => {
    const parent = new AbortController()
    const deadline = deadlineSignal(10, parent.signal)
    deadline.clear()
    parent.abort(new Error('late'))
    expect(await abortedWithin(deadline.signal, 100)).toBe('never')
  })
})
