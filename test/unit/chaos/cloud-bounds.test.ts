/**
 * The capacity scenario's RunInstances bound was `instances launched + misses + kills x
 * concurrency`: a worker that launched every Machine twice raised both sides alike, so the bound
 * could not fail. It is now derived from the scenario's inputs alone.
 */
import { describe, expect, it } from 'vitest'
import { capacityRunBound, machinesCreated } from '../../chaos/lib/cloud-bounds'

describe('capacity RunInstances bound', () => {
  it.each([
    ['the full run', 30, [10, 30, 10, 30], 70],
    ['the short run', 6, [2, 6, 2, 6], 14],
    ['a scale-down only', 6, [2], 6],
    ['no churn', 4, [], 4],
  ])('%s creates the Machines its schedule asks for', (_, replicas, schedule, created) => {
    expect(machinesCreated(replicas, schedule)).toBe(created)
  })

  // The figures of the full run in docs/reliability.md: 70 Machines, 33 misses, 6 kills, 8 at once.
  const run = { machines: 70, misses: 33, kills: 6, concurrency: 8 }

  it('holds for a worker that launches each Machine once', () => {
    expect(103).toBeLessThanOrEqual(capacityRunBound(run))
  })

  it('breaks for a worker that launches each Machine twice', () => {
    const requests = 2 * run.machines + run.misses
    const launched = 2 * run.machines
    // The old bound moved with what was launched and still held:
    expect(requests).toBeLessThanOrEqual(launched + run.misses + run.kills * run.concurrency)
    expect(requests).toBeGreaterThan(capacityRunBound(run))
  })
})
