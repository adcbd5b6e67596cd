import { describe, expect, it } from 'vitest'
import {
  CAPACITY_KNOWN,
  capacityCurrent,
  capacityStatus,
  statusPatch,
} from '../../../../src/reconcile/machine-class/capacity-status'

const now = new Date('2026-12-03T07:00:00Z')
const known = {
  type: 'known' as const,
  result: { capacity: { cpu: '2', memory: '8Gi' }, nodeInfo: { architecture: 'amd64' } },
}

describe('capacityStatus', () => {
  it('records what the provider reported, for the generation asked about', () => {
    const status = capacityStatus({ metadata: { generation: 3 } }, known, now)
    expect(status).toMatchObject({
      observedGeneration: 3,
      capacity: { cpu: '2', memory: '8Gi' },
      nodeInfo: { architecture: 'amd64' },
      conditions: [{ type: CAPACITY_KNOWN, status: 'True', reason: 'ProviderReported' }],
    })
    expect(capacityCurrent({ metadata: { generation: 3 }, status })).toBe(true)
    expect(capacityCurrent({ metadata: { generation: 4 }, status })).toBe(false)
  })

  it('records the types each offered zone offers, and drops them when the provider stops telling', () => {
    const zoneInstanceTypes = [{ zone: 'c', instanceTypes: ['m6i.large'] }]
    const withTypes = { ...known, result: { ...known.result, zones: ['c'], zoneInstanceTypes } }
    const status = capacityStatus({ metadata: { generation: 1 } }, withTypes, now)
    expect(status).toMatchObject({ offeredZones: ['c'], zoneInstanceTypes })
    const after = capacityStatus({ metadata: { generation: 2 }, status }, known, now)
    expect(after.zoneInstanceTypes).toBeUndefined()
  })

  it('keeps a known capacity while the provider cannot answer, and asks again', () => {
    const before = capacityStatus({ metadata: { generation: 1 } }, known, now)
    const after = capacityStatus(
      { metadata: { generation: 1 }, status: before },
      { type: 'unavailable', reason: 'Throttled', message: 'slow down' },
      now,
    )
    expect(after.capacity).toEqual({ cpu: '2', memory: '8Gi' })
    expect(after.conditions?.[0]).toMatchObject({ status: 'Unknown', reason: 'Throttled' })
    expect(capacityCurrent({ metadata: { generation: 1 }, status: after })).toBe(false)
  })

  it('drops the capacity of a spec that became invalid, naming why', () => {
    const before = capacityStatus({ metadata: { generation: 1 } }, known, now)
    const after = capacityStatus(
      { metadata: { generation: 2 }, status: before },
      {
        type: 'invalid',
        reason: 'InvalidInstanceType',
        message: 'instance type x.y is not offered',
      },
      now,
    )
    expect(after.capacity).toBeUndefined()
    expect(after.conditions?.[0]).toMatchObject({ status: 'False', reason: 'InvalidInstanceType' })
    // Written as a merge patch, what it dropped must be sent as null or the stored one stays.
    const patch = statusPatch({ ...before, offeredZones: ['a'], zones: ['a'] }, after)
    expect(patch).toMatchObject({ capacity: null, nodeInfo: null, offeredZones: null, zones: null })
    expect(patch.conditions).toEqual(after.conditions)
  })

  it('says how to scale from zero when the provider cannot tell', () => {
    const status = capacityStatus(
      { metadata: { generation: 1 } },
      { type: 'unsupported', provider: 'metal' },
      now,
    )
    expect(status.conditions?.[0]).toMatchObject({
      status: 'False',
      reason: 'NotReportedByProvider',
    })
    expect(status.conditions?.[0]?.message).toContain('capacity.cluster-autoscaler.kubernetes.io')
  })
})
