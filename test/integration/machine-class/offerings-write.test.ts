/**
 * The one write of a MachineClass's status.unavailableOfferings against the real apiserver: writers
 * that all start from the same (soon stale) copy of the class, at once, an interruption record
 * twice and a launch's miss, each end with its entries listed once (Conflicts redone over a fresh
 * read), and a writer that finds its entries there writes nothing.
 */
import { describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { systemClock } from '../../../src/clock'
import {
  type ClassObject,
  updateUnavailableOfferings,
} from '../../../src/reconcile/machine-class/offerings-write'
import {
  rememberInterruptions,
  rememberOutcome,
} from '../../../src/reconcile/shared/unavailable-offerings'
import { useMachineTestApi } from '../machine/fixture'

const { namespace, kube } = useMachineTestApi('offer-write')

describe('updateUnavailableOfferings', () => {
  it('merges concurrent writers from one stale copy and writes nothing when it holds them', async () => {
    const ns = namespace()
    const created = await kube().create<ClassObject>(machineApiTypes.machineClass, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'MachineClass',
      metadata: { namespace: ns, name: 'merge' },
      spec: { provider: 'kwok', providerSpec: {}, unavailableOfferingTTL: '1m' },
    })
    const deps = { kube: kube(), clock: systemClock }
    const spot = { instanceType: 't3.micro', zone: 'eu-west-1b', capacityType: 'spot' }
    const interruption = { ...spot, reason: 'SpotInterruption', atMs: Date.now() + 120_000 }
    const miss = {
      instanceType: 't3.small',
      zone: 'eu-west-1a',
      capacityType: 'on-demand',
      reason: 'InsufficientInstanceCapacity',
    }
    const record = () =>
      updateUnavailableOfferings(deps, created, (current, now, ttl) =>
        rememberInterruptions(current, [interruption], now, ttl),
      )
    const results = await Promise.all([
      record(),
      record(),
      updateUnavailableOfferings(deps, created, (current, now, ttl) =>
        rememberOutcome(current, { missed: [miss] }, now, ttl),
      ),
    ])
    // One of the two interruption records writes (the other finds the entry), and the miss does.
    expect(results.filter((r) => r.wrote)).toHaveLength(2)
    const stored = await kube().get<ClassObject>(machineApiTypes.machineClass, {
      namespace: ns,
      name: 'merge',
    })
    const entries = stored?.status?.unavailableOfferings ?? []
    expect(
      entries.map((e) => `${e.instanceType}/${e.zone}/${e.capacityType} ${e.reason}`).sort(),
    ).toEqual([
      't3.micro/eu-west-1b/spot SpotInterruption',
      't3.small/eu-west-1a/on-demand InsufficientInstanceCapacity',
    ])
    expect(entries.find((e) => e.reason === 'SpotInterruption')?.expiresAt).toBe(
      new Date(interruption.atMs + 60_000).toISOString(),
    )
    // Again, from the stale copy: a Conflict, a fresh read that holds it, no write.
    const again = await record()
    expect(again.wrote).toBe(false)
    const after = await kube().get<ClassObject>(machineApiTypes.machineClass, {
      namespace: ns,
      name: 'merge',
    })
    expect(after?.metadata.resourceVersion).toBe(stored?.metadata.resourceVersion)
  })
})
