import { describe, expect, it } from 'vitest'
import { createBatchLoader } from '../../src/batch-loader'

/** A loader whose calls answer `value-<key>` for keys not in `missing`, held until released. */
function heldLoader(options: { maxKeys: number; maxInFlight: number; missing?: string[] }) {
  const calls: string[][] = []
  const releases: Array<() => void> = []
  const loader = createBatchLoader<string, string>({
    maxKeys: options.maxKeys,
    maxInFlight: options.maxInFlight,
    callTimeoutMs: 5_000,
    run: async (keys) => {
      calls.push(keys)
      await new Promise<void>((resolve) => releases.push(resolve))
      const found = keys.filter((key) => !options.missing?.includes(key))
      return new Map(found.map((key) => [key, `value-${key}`]))
    },
  })
  const releaseAll = () => {
    for (const release of releases.splice(0)) release()
  }
  return { loader, calls, releaseAll }
}

/** Resolves once `calls` has `n` entries (each call registers before it waits). */
async function untilCalls(calls: unknown[], n: number): Promise<void> {
  while (calls.length < n) await new Promise((resolve) => setImmediate(resolve))
}

const never = new AbortController().signal

describe('createBatchLoader', () => {
  it('answers keys asked in one burst with one call, a missing key with undefined', async () => {
    const { loader, calls, releaseAll } = heldLoader({
      maxKeys: 10,
      maxInFlight: 2,
      missing: ['c'],
    })
    const answers = Promise.all(['a', 'b', 'c', 'a'].map((key) => loader.load(key, never)))
    await untilCalls(calls, 1)
    releaseAll()
    expect(await answers).toEqual(['value-a', 'value-b', undefined, 'value-a'])
    expect(calls).toEqual([['a', 'b', 'c']])
  })

  it.each([
    {
      maxInFlight: 1,
      keys: 7,
      maxKeys: 3,
      expected: [['k0'], ['k1', 'k2', 'k3'], ['k4', 'k5', 'k6']],
    },
    { maxInFlight: 2, keys: 5, maxKeys: 10, expected: [['k0'], ['k1'], ['k2', 'k3', 'k4']] },
  ])(
    'keys asked while $maxInFlight call(s) are out join the next call, $maxKeys at most',
    async ({ maxInFlight, keys, maxKeys, expected }) => {
      const { loader, calls, releaseAll } = heldLoader({ maxKeys, maxInFlight })
      const names = Array.from({ length: keys }, (_, i) => `k${i}`)
      const answers: Array<Promise<string | undefined>> = []
      // The first key(s) go out alone; the rest arrive while those calls are held.
      for (const name of names.slice(0, maxInFlight)) {
        answers.push(loader.load(name, never))
        await untilCalls(calls, answers.length)
      }
      for (const name of names.slice(maxInFlight)) answers.push(loader.load(name, never))
      while (calls.length < expected.length) {
        releaseAll()
        await new Promise((resolve) => setImmediate(resolve))
      }
      releaseAll()
      await untilCalls(calls, expected.length)
      releaseAll()
      expect(await Promise.all(answers)).toEqual(names.map((name) => `value-${name}`))
      expect(calls).toEqual(expected)
    },
  )

  it('a failed call rejects each of its keys with its error, and the next call still goes out', async () => {
    let fail = true
    const loader = createBatchLoader<string, string>({
      maxKeys: 10,
      maxInFlight: 1,
      callTimeoutMs: 5_000,
      run: async (keys) => {
        if (fail) {
          fail = false
          throw new Error('throttled')
        }
        return new Map(keys.map((key) => [key, key]))
      },
    })
    const first = await Promise.allSettled([loader.load('a', never), loader.load('b', never)])
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(await loader.load('a', never)).toBe('a')
  })

  it('an aborted caller stops waiting; a key nobody waits for any more is not sent', async () => {
    const { loader, calls, releaseAll } = heldLoader({ maxKeys: 10, maxInFlight: 1 })
    const first = loader.load('a', never)
    await untilCalls(calls, 1)
    const controller = new AbortController()
    const aborted = loader.load('b', controller.signal)
    const kept = loader.load('c', never)
    controller.abort(new Error('deadline'))
    await expect(aborted).rejects.toThrow('deadline')
    releaseAll()
    await untilCalls(calls, 2)
    releaseAll()
    expect([await first, await kept]).toEqual(['value-a', 'value-c'])
    expect(calls).toEqual([['a'], ['c']])
  })

  it('a signal aborted before the call rejects at once', async () => {
    const { loader, calls } = heldLoader({ maxKeys: 10, maxInFlight: 1 })
    const controller = new AbortController()
    controller.abort(new Error('gone'))
    await expect(loader.load('a', controller.signal)).rejects.toThrow('gone')
    expect(calls).toEqual([])
  })
})
