import { describe, expect, it } from 'vitest'
import { createMemo } from '../../src/memo'

const never = new AbortController().signal

/** A memo on a clock the test moves, and a compute that counts its calls. */
function counted(ttlMs: number) {
  let t = 0
  const memo = createMemo<number>({ ttlMs, callTimeoutMs: 5_000, now: () => t })
  let calls = 0
  const compute = async () => {
    calls += 1
    return calls
  }
  return {
    memo,
    compute,
    calls: () => calls,
    advance: (ms: number) => {
      t += ms
    },
  }
}

describe('createMemo', () => {
  it('callers within the time to live share one call; after it, the next caller makes a new one', async () => {
    const { memo, compute, calls, advance } = counted(1_000)
    const together = await Promise.all([1, 2, 3].map(() => memo.get('k', compute, never)))
    advance(999)
    const later = await memo.get('k', compute, never)
    advance(1)
    const expired = await memo.get('k', compute, never)
    expect({ together, later, expired, calls: calls() }).toEqual({
      together: [1, 1, 1],
      later: 1,
      expired: 2,
      calls: 2,
    })
  })

  it('keys do not share answers', async () => {
    const { memo, compute } = counted(1_000)
    expect([await memo.get('a', compute, never), await memo.get('b', compute, never)]).toEqual([
      1, 2,
    ])
  })

  it('a failed call is not kept: the next caller asks again', async () => {
    const memo = createMemo<string>({ ttlMs: 60_000, callTimeoutMs: 5_000 })
    await expect(
      memo.get('k', () => Promise.reject(new Error('throttled')), never),
    ).rejects.toThrow('throttled')
    expect(await memo.get('k', async () => 'ok', never)).toBe('ok')
  })

  it("a caller's abort ends its own wait; the call still answers the others", async () => {
    const memo = createMemo<string>({ ttlMs: 60_000, callTimeoutMs: 5_000 })
    let release: (value: string) => void = () => {}
    const held = () => new Promise<string>((resolve) => (release = resolve))
    const controller = new AbortController()
    const aborted = memo.get('k', held, controller.signal)
    const kept = memo.get('k', held, never)
    controller.abort(new Error('deadline'))
    await expect(aborted).rejects.toThrow('deadline')
    release('answer')
    expect(await kept).toBe('answer')
  })
})
