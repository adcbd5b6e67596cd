import { describe, expect, it } from 'vitest'
import { planLaunchGroups } from '../../../../src/reconcile/machine-set/launch-groups'

const creates = (zones: (string | undefined)[]) =>
  zones.map((zone, i) => ({ name: `m-${i}`, zone }))

describe('planLaunchGroups', () => {
  it.each<[string, (string | undefined)[], Record<string, [number, number]>]>([
    ['one Machine: none', ['a'], {}],
    ['two in one zone: one group', ['a', 'a'], { 'm-0': [0, 2], 'm-1': [1, 2] }],
    [
      'three zones, one alone',
      ['a', 'b', 'c', 'a', 'b'],
      { 'm-0': [0, 2], 'm-3': [1, 2], 'm-1': [0, 2], 'm-4': [1, 2] },
    ],
    [
      'no zone: one group',
      [undefined, undefined, undefined],
      { 'm-0': [0, 3], 'm-1': [1, 3], 'm-2': [2, 3] },
    ],
  ])('%s', (_, zones, expected) => {
    const places = planLaunchGroups({ setUid: 'uid-1', firstIndex: 4, creates: creates(zones) })
    const got = Object.fromEntries([...places].map(([name, p]) => [name, [p.index, p.size]]))
    expect(got).toEqual(expected)
  })

  it('gives each zone its own group and never the same group to two passes', () => {
    const input = { setUid: 'uid-1', creates: creates(['a', 'b', 'a', 'b']) }
    const first = planLaunchGroups({ ...input, firstIndex: 0 })
    const again = planLaunchGroups({ ...input, firstIndex: 0 })
    const next = planLaunchGroups({ ...input, firstIndex: 4 })
    expect(first.get('m-0')?.group).not.toBe(first.get('m-1')?.group)
    expect(first.get('m-0')?.group).toBe(first.get('m-2')?.group)
    expect(again).toEqual(first)
    expect(next.get('m-0')?.group).not.toBe(first.get('m-0')?.group)
    expect(first.get('m-0')?.group).toMatch(/^[0-9a-f]{16}$/)
  })

  it('splits a zone of more than 100 into groups of at most 100', () => {
    const places = planLaunchGroups({
      setUid: 'uid-1',
      firstIndex: 0,
      creates: creates(Array.from({ length: 201 }, () => 'a')),
    })
    const sizes = new Map([...places.values()].map((p) => [p.group, p.size]))
    expect([...sizes.values()]).toEqual([100, 100])
    expect(places.has('m-200')).toBe(false)
  })
})
