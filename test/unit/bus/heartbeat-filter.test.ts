import { describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { changeFilterFor, createHeartbeatFilter } from '../../../src/bus/heartbeat-filter'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'

function node(options: {
  rv: string
  heartbeat: string
  ready?: string
  transition?: string
  labels?: Record<string, string>
}): KubeObject {
  return {
    metadata: {
      name: 'n1',
      uid: 'u1',
      resourceVersion: options.rv,
      labels: options.labels ?? {},
      managedFields: [{ manager: 'kwok', time: options.heartbeat }],
    },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: options.ready ?? 'True',
          lastHeartbeatTime: options.heartbeat,
          lastTransitionTime: options.transition ?? '2026-01-01T00:00:00Z',
        },
      ],
    },
  }
}

const first = node({ rv: '1', heartbeat: '2026-01-01T00:00:10Z' })

describe('heartbeat filter', () => {
  it.each([
    ['a heartbeat alone', node({ rv: '2', heartbeat: '2026-01-01T00:00:30Z' }), false],
    [
      'Ready turning False',
      node({
        rv: '2',
        heartbeat: '2026-01-01T00:00:10Z',
        ready: 'False',
        transition: '2026-01-01T00:00:20Z',
      }),
      true,
    ],
    [
      'a label change with a heartbeat',
      node({ rv: '2', heartbeat: '2026-01-01T00:00:30Z', labels: { pool: 'b' } }),
      true,
    ],
  ])('after a delivered Node, %s passes: %s', (_, next, passes) => {
    const filter = createHeartbeatFilter()
    expect(filter.admit(first, 'ADDED')).toBe(true)
    expect(filter.admit(next, 'MODIFIED')).toBe(passes)
  })

  it('always passes listed, added and deleted Nodes, and forgets on reset', () => {
    const filter = createHeartbeatFilter()
    const beat = node({ rv: '2', heartbeat: '2026-01-01T00:00:30Z' })
    expect(filter.admit(first, 'SYNC')).toBe(true)
    expect(filter.admit(first, 'SYNC')).toBe(true)
    expect(filter.admit(first, 'DELETED')).toBe(true)
    // Forgotten after the delete: the next modification passes.
    expect(filter.admit(beat, 'MODIFIED')).toBe(true)
    filter.reset()
    expect(filter.admit(beat, 'MODIFIED')).toBe(true)
  })

  it('applies to Nodes only', () => {
    expect(changeFilterFor(coreTypes.node)).toBeDefined()
    expect(changeFilterFor(machineApiTypes.machine)).toBeUndefined()
  })
})
