import { describe, expect, it } from 'vitest'
import { callSignal } from '../../../../src/reconcile/machine/provider-context'

/** Resolves with its reason once `signal` aborts (at once when it already has). */
function aborted(signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) return Promise.resolve(signal.reason)
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason)))
}

describe('callSignal', () => {
  it('aborts a call when the runner abandons the reconcile', async () => {
    const reconcile = new AbortController()
    const { signal } = callSignal({ signal: reconcile.signal, providerCallTimeoutMs: 60_000 })
    expect(signal.aborted).toBe(false)
    reconcile.abort(new Error('deadline'))
    expect(await aborted(signal)).toEqual(new Error('deadline'))
  })

  it("starts each call's timeout at that call: a later call is not aborted by an earlier one's", async () => {
    const reconcile = new AbortController()
    const deps = { signal: reconcile.signal, providerCallTimeoutMs: 1 }
    const first = callSignal(deps).signal
    await aborted(first)
    const second = callSignal(deps).signal
    expect(second.aborted).toBe(false)
    expect(reconcile.signal.aborted).toBe(false)
    await aborted(second)
  })

  it('times a call out without a runner signal too', async () => {
    expect(await aborted(callSignal({ providerCallTimeoutMs: 1 }).signal)).toBeInstanceOf(
      DOMException,
    )
  })
})
