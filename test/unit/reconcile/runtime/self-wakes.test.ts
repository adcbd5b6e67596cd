import { describe, expect, it } from 'vitest'
import type { OwnChangeWake } from '../../../../src/bus/wake'
import { createSelfWakes } from '../../../../src/reconcile/runtime/self-wakes'

const key = { kind: 'Machine', namespace: 'ns', name: 'm' }
const own = (resourceVersion: string | undefined): OwnChangeWake => ({
  type: 'own-change',
  resourceVersion,
})
const unread = async () => {
  throw new Error('the version was carried by the wake: nothing to read')
}

describe('self wakes', () => {
  it('holds a wake by a version the last run wrote until the timer it returned is due', async () => {
    const wakes = createSelfWakes()
    wakes.settled(key, 500, 1000, new Set(['7', '8']))
    expect(await wakes.deferral(key, own('8'), 1100, unread)).toBe(400)
    expect(await wakes.deferral(key, own('7'), 1499, unread)).toBe(1)
    // Due: the run goes ahead.
    expect(await wakes.deferral(key, own('8'), 1500, unread)).toBeUndefined()
  })

  it('runs at once for anyone else: another version, another cause, another key', async () => {
    const wakes = createSelfWakes()
    wakes.settled(key, 60_000, 0, new Set(['8']))
    expect(await wakes.deferral(key, own('9'), 10, unread)).toBeUndefined()
    expect(await wakes.deferral(key, undefined, 10, unread)).toBeUndefined()
    expect(await wakes.deferral({ ...key, name: 'other' }, own('8'), 10, unread)).toBeUndefined()
  })

  it('forgets a key whose run left no timer, so its own writes wake it as before', async () => {
    const wakes = createSelfWakes()
    wakes.settled(key, 500, 0, new Set(['8']))
    wakes.settled(key, undefined, 10, new Set(['9']))
    expect(await wakes.deferral(key, own('9'), 20, unread)).toBeUndefined()
    wakes.settled(key, 0, 30, new Set(['10']))
    expect(await wakes.deferral(key, own('10'), 40, unread)).toBeUndefined()
    expect(wakes.size()).toBe(0)
  })

  it('reads the version when the wake names only the object, and only while a timer is pending', async () => {
    const wakes = createSelfWakes()
    let reads = 0
    const current = async () => {
      reads++
      return '8'
    }
    expect(await wakes.deferral(key, own(undefined), 0, current)).toBeUndefined()
    expect(reads).toBe(0)
    wakes.settled(key, 500, 0, new Set(['8']))
    expect(await wakes.deferral(key, own(undefined), 100, current)).toBe(400)
    expect(reads).toBe(1)
  })
})
