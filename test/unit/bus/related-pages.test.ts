import { describe, expect, it } from 'vitest'
import { listPosition, relatedCursor } from '../../../src/bus/related-pages'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'

const node = (name: string): KubeObject => ({ metadata: { name } })

/** A cursor over `pages` (lists of names) that records how many pages it read. */
function cursorOver(pages: string[][], failAt?: number) {
  const seen = { pages: 0, errors: [] as unknown[] }
  const cursor = relatedCursor(
    coreTypes.node,
    () =>
      (async function* () {
        for (const [index, names] of pages.entries()) {
          if (index === failAt) throw new Error('list failed')
          seen.pages++
          yield names.map(node)
        }
      })(),
    (error) => seen.errors.push(error),
  )
  const take = async (...names: string[]) => [...(await cursor.take(new Set(names))).keys()]
  return { cursor, seen, take }
}

describe('relatedCursor', () => {
  it('reads related pages only as far as each page of owners needs', async () => {
    const { seen, take } = cursorOver([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
    ])
    expect(await take('a', 'b')).toEqual(['a', 'b'])
    expect(seen.pages).toBe(1)
    expect(await take('c')).toEqual(['c'])
    expect(seen.pages).toBe(2)
    // 'd' was read ahead with 'c' and is handed to the next page without another list.
    expect(await take('d', 'f')).toEqual(['d', 'f'])
    expect(seen.pages).toBe(3)
  })

  it('finds nothing for names it has walked past or that do not exist, without reading again', async () => {
    const { seen, take } = cursorOver([['a', 'b'], ['c']])
    expect(await take('b')).toEqual(['b'])
    expect(await take('a', 'bb')).toEqual([])
    expect(await take('c', 'z')).toEqual(['c'])
    expect(await take('zz')).toEqual([])
    expect(seen.pages).toBe(2)
  })

  it('keeps only wanted objects and the read-ahead past the furthest wanted name', async () => {
    const { take } = cursorOver([['a', 'b', 'c', 'd']])
    expect(await take('b')).toEqual(['b'])
    // 'a' was before the want and is gone; 'c' and 'd' are still ahead.
    expect(await take('a', 'c', 'd')).toEqual(['c', 'd'])
    expect(await take('d')).toEqual([])
  })

  it('does not list at all when no owner names a related object', async () => {
    const { seen, take } = cursorOver([['a']])
    expect(await take()).toEqual([])
    expect(seen.pages).toBe(0)
  })

  it('reports a failed list once and then finds nothing', async () => {
    const { seen, take } = cursorOver([['a'], ['b']], 1)
    expect(await take('a')).toEqual(['a'])
    expect(await take('b')).toEqual([])
    expect(await take('c')).toEqual([])
    expect(seen.errors).toHaveLength(1)
  })
})

describe('listPosition', () => {
  const machines = { group: 'g', version: 'v', kind: 'M', plural: 'ms', namespaced: true }
  it('orders namespaced objects by namespace, then name, as the apiserver lists them', () => {
    expect(listPosition(machines, { namespace: 'ns', name: 'a' })).toBe('ns/a')
    expect(listPosition(coreTypes.node, { name: 'n' })).toBe('n')
  })
})
