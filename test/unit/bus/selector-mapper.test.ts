import { describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { selectorMapper, sharedListing, specSelector } from '../../../src/bus/event-mapping'
import type { KubeClient } from '../../../src/kube/kube-client'
import { manualTimers } from './manual-timers'

const check = {
  metadata: { namespace: 'ns', name: 'mhc' },
  spec: { selector: { matchLabels: { pool: 'a' } } },
}

/** A kube client whose list answers after a tick, counting calls. */
function listingKube() {
  let lists = 0
  const kube = {
    async list() {
      lists++
      await new Promise((resolve) => setTimeout(resolve, 5))
      return { items: [check], continue: undefined, resourceVersion: '1' }
    },
  } as unknown as KubeClient
  return { kube, lists: () => lists }
}

describe('selectorMapper', () => {
  it('shares one listing among changes mapped at the same time (a watch first list)', async () => {
    const { kube, lists } = listingKube()
    const mapper = selectorMapper('Machine', machineApiTypes.machineHealthCheck)
    const machines = Array.from({ length: 100 }, (_, i) => ({
      metadata: { namespace: 'ns', name: `m-${i}`, labels: { pool: i % 2 ? 'a' : 'b' } },
    }))
    const keys = await Promise.all(machines.map((m) => mapper.map(m, kube)))
    expect(lists()).toBe(1)
    expect(keys.filter((k) => k.length === 1)).toHaveLength(50)
    expect(keys[1]).toEqual([{ kind: 'MachineHealthCheck', namespace: 'ns', name: 'mhc' }])
  })

  it('lists again for a later change (no stale cache)', async () => {
    const { kube, lists } = listingKube()
    const mapper = selectorMapper('Machine', machineApiTypes.machineHealthCheck)
    const machine = { metadata: { namespace: 'ns', name: 'm', labels: { pool: 'a' } } }
    await mapper.map(machine, kube)
    await mapper.map(machine, kube)
    expect(lists()).toBe(2)
  })

  it('with a gather window, changes of one window share one listing started after them', async () => {
    const { kube, lists } = listingKube()
    const timers = manualTimers()
    const type = machineApiTypes.machineHealthCheck
    const listing = sharedListing(type, { timers, ms: 1000 })
    const mapper = selectorMapper('Machine', type, specSelector, listing)
    const machine = (name: string) => ({
      metadata: { namespace: 'ns', name, labels: { pool: 'a' } },
    })
    const first = mapper.map(machine('m-1'), kube)
    timers.advance(500)
    const second = mapper.map(machine('m-2'), kube)
    expect(lists()).toBe(0)
    timers.advance(500)
    expect(await Promise.all([first, second])).toEqual([
      [{ kind: 'MachineHealthCheck', namespace: 'ns', name: 'mhc' }],
      [{ kind: 'MachineHealthCheck', namespace: 'ns', name: 'mhc' }],
    ])
    expect(lists()).toBe(1)
    // A change after the listing finished waits for a listing of its own.
    const third = mapper.map(machine('m-3'), kube)
    timers.advance(1000)
    await third
    expect(lists()).toBe(2)
  })

  it("with a gather window, a relist's changes list at once and share that listing", async () => {
    const { kube, lists } = listingKube()
    const timers = manualTimers()
    const type = machineApiTypes.machineHealthCheck
    const mapper = selectorMapper(
      'Machine',
      type,
      specSelector,
      sharedListing(type, { timers, ms: 1000 }),
    )
    const machines = Array.from({ length: 10 }, (_, i) => ({
      metadata: { namespace: 'ns', name: `m-${i}`, labels: { pool: 'a' } },
    }))
    // No timer advances: a listed change does not wait for the window.
    const keys = await Promise.all(machines.map((m) => mapper.map(m, kube, 'SYNC')))
    expect(keys.every((k) => k.length === 1)).toBe(true)
    expect(lists()).toBe(1)
  })
})
