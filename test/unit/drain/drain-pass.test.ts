import type { V1Pod } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import { drainNodePass } from '../../../src/drain/drain'
import type { DrainClient, EvictionOutcome } from '../../../src/drain/drain-client'

function replicaSetPod(name: string): V1Pod {
  return {
    metadata: {
      namespace: 'apps',
      name,
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u', controller: true },
      ],
    },
    spec: { nodeName: 'n1', containers: [] },
    status: { phase: 'Running' },
  }
}

/** An in-memory Node whose evictions settle in reverse order, and that records how many overlap. */
function nodeWith(pods: V1Pod[], outcome: (name: string) => EvictionOutcome) {
  let inFlight = 0
  const seen = { maxInFlight: 0, evicted: [] as string[] }
  const client: DrainClient = {
    async cordon() {},
    async listPodsOnNode() {
      return pods
    },
    async evict(pod) {
      inFlight++
      seen.maxInFlight = Math.max(seen.maxInFlight, inFlight)
      const index = pods.findIndex((p) => p.metadata?.name === pod.name)
      await new Promise((resolve) => setTimeout(resolve, (pods.length - index) * 2))
      inFlight--
      seen.evicted.push(pod.name)
      return outcome(pod.name)
    },
  }
  return { client, seen }
}

const pass = { nodeName: 'n1', nodeUnreachable: false, now: new Date('2026-12-02T00:00:00Z') }

describe('drainNodePass', () => {
  it('evicts up to evictionConcurrency pods at once and reports them in pod order', async () => {
    const pods = Array.from({ length: 30 }, (_, i) =>
      replicaSetPod(`p-${String(i).padStart(2, '0')}`),
    )
    const { client, seen } = nodeWith(pods, () => ({ type: 'evicted' }))
    const result = await drainNodePass(client, { ...pass, evictionConcurrency: 8 })
    expect(seen.maxInFlight).toBe(8)
    expect(result.evicted).toEqual(pods.map((p) => `apps/${p.metadata?.name}`))
  })

  it('keeps the per-pass budget: pods beyond it are waited for, not evicted', async () => {
    const pods = Array.from({ length: 5 }, (_, i) => replicaSetPod(`p-${i}`))
    const { client, seen } = nodeWith(pods, () => ({ type: 'evicted' }))
    const result = await drainNodePass(client, { ...pass, maxEvictions: 3 })
    expect(seen.evicted).toHaveLength(3)
    expect(result.waitingFor).toEqual(['apps/p-3', 'apps/p-4'])
  })

  it('sorts each outcome: blocked by a budget, failed, and already gone', async () => {
    const pods = ['a', 'b', 'c', 'd'].map(replicaSetPod)
    const outcomes: Record<string, EvictionOutcome> = {
      a: { type: 'evicted' },
      b: { type: 'blocked', message: 'pdb db allows 0' },
      c: { type: 'failed', message: 'boom' },
      d: { type: 'gone' },
    }
    const { client } = nodeWith(pods, (name) => outcomes[name] as EvictionOutcome)
    const result = await drainNodePass(client, pass)
    expect(result.evicted).toEqual(['apps/a'])
    expect(result.blocked).toEqual([{ pod: 'apps/b', message: 'pdb db allows 0' }])
    expect(result.failed).toEqual([{ pod: 'apps/c', message: 'boom' }])
  })
})
