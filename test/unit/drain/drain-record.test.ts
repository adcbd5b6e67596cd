import { describe, expect, it } from 'vitest'
import { blockingBudgets, maxRecordedPods, mergeDrainRecord } from '../../../src/drain/drain-record'
import type { EvictionResult } from '../../../src/drain/eviction-result'

const pass = (overrides: Partial<EvictionResult>): EvictionResult => ({
  evicted: [],
  blocked: [],
  failed: [],
  waitingFor: [],
  warnings: [],
  skipped: [],
  ...overrides,
})

describe('the drain record', () => {
  it('keeps what earlier passes evicted and warned about; skipped is what the last pass left', () => {
    const first = mergeDrainRecord(
      undefined,
      pass({
        evicted: ['ns/a', 'ns/scratch'],
        warnings: [{ pod: 'ns/scratch', warning: 'emptyDir data is lost' }],
        skipped: [{ pod: 'kube-system/agent', reason: 'DaemonSet pod' }],
      }),
    )
    const second = mergeDrainRecord(
      first,
      pass({
        evicted: ['ns/a', 'ns/b'],
        skipped: [{ pod: 'kube-system/agent', reason: 'DaemonSet pod' }],
      }),
    )
    expect(second).toEqual({
      evicted: ['ns/a', 'ns/scratch', 'ns/b'],
      evictedCount: 4,
      skipped: [{ pod: 'kube-system/agent', reason: 'DaemonSet pod' }],
      warnings: [{ pod: 'ns/scratch', warning: 'emptyDir data is lost' }],
    })
    // A pass that evicts nothing new changes nothing: no status write, nothing to wake the Machine.
    expect(mergeDrainRecord(second, pass({ skipped: second.skipped }))).toEqual({
      ...second,
    })
  })

  it('stays bounded however many pods a Node had', () => {
    const pods = Array.from({ length: maxRecordedPods + 20 }, (_, i) => `ns/p${i}`)
    const record = mergeDrainRecord(undefined, pass({ evicted: pods }))
    expect(record.evicted).toHaveLength(maxRecordedPods)
    expect(record.evictedCount).toBe(maxRecordedPods + 20)
  })

  it('names each blocking PodDisruptionBudget once', () => {
    const message = (budget: string) =>
      `Cannot evict pod as it would violate the pod's disruption budget. (The disruption budget ${budget} needs 2 healthy pods and has 2 currently)`
    const budgets = blockingBudgets(
      pass({
        blocked: [
          { pod: 'ns/db-0', message: message('db') },
          { pod: 'ns/db-1', message: message('db') },
          { pod: 'ns/web-0', message: message('web') },
          { pod: 'ns/x', message: 'Too many requests' },
        ],
      }),
    )
    expect(budgets.map((b) => [b.budget, b.pod])).toEqual([
      ['db', 'ns/db-0'],
      ['web', 'ns/web-0'],
      [undefined, 'ns/x'],
    ])
  })
})
