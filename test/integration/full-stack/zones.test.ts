/**
 * Balanced zones end to end with every controller and the kwok provider: a MachineDeployment whose
 * kwok spec lists three zones spreads its Machines evenly as it grows, each Machine's zone is its
 * spec.failureDomain and its Node's topology.kubernetes.io/zone label, and a scale-down takes from
 * the most populated zones first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes } from '../../../src/kube/resource'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'
import { kubectl, waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { fullStackKube, startFullStack } from './fixture'
import { isRunningMachine, kwokDeployment, machinesOf } from './objects'

const api = useMachineApi({
  providerSchemas: (name) => (name === 'kwok' ? kwokProviderSpecSchema() : undefined),
})
const ns = useFileNamespace(() => api().kc, 'full-zones')
let kube: KubeClient
beforeAll(() => {
  kube = fullStackKube(api().kc)
})
afterAll(() => kube.close())

const name = 'spread'
const zones = ['zone-a', 'zone-b', 'zone-c']

/** Zone counts of the Running Machines once exactly `replicas` run and none is being deleted. */
async function settledAt(
  replicas: number,
): Promise<{ counts: number[]; machines: MachineObject[] }> {
  return await waitFor(
    `${replicas} Running Machines and no other`,
    async () => {
      const machines = await machinesOf(kube, ns())
      const done = machines.length === replicas && machines.every(isRunningMachine)
      const counts = zones.map((z) => machines.filter((m) => m.spec?.failureDomain === z).length)
      return done && { counts, machines }
    },
    { intervalMs: 500, timeoutMs: 120_000 },
  )
}

async function scale(replicas: number): Promise<void> {
  await kube.mergePatch(
    machineApiTypes.machineDeployment,
    { namespace: ns(), name },
    { spec: { replicas } },
  )
}

describe('balanced zones with every controller and the kwok provider', () => {
  it('spreads Machines evenly over the zones as the set grows and shrinks', async () => {
    await startFullStack(kube, ns())
    const md = kwokDeployment(ns(), name, { replicas: 3, nodeLabels: {} })
    const template = (md.spec as { template: { spec: { providerSpec: { value: object } } } })
      .template
    template.spec.providerSpec.value = { ...template.spec.providerSpec.value, zones }
    await kube.create(machineApiTypes.machineDeployment, md)

    const three = await settledAt(3)
    expect(three.counts).toEqual([1, 1, 1])
    for (const m of three.machines) {
      const node = await kube.get(coreTypes.node, { name: m.status?.nodeRef?.name ?? '' })
      expect(node?.metadata?.labels?.['topology.kubernetes.io/zone']).toBe(m.spec?.failureDomain)
    }

    await scale(7)
    const seven = await settledAt(7)
    expect(seven.counts.sort()).toEqual([2, 2, 3])
    await scale(4)
    const four = await settledAt(4)
    expect(four.counts.sort()).toEqual([1, 1, 2])
    // The spread as an operator reads it, from the set's status.
    const spread = zones
      .map((z) => `${z}=${four.machines.filter((m) => m.spec?.failureDomain === z).length}`)
      .join(',')
    await waitFor('the set reports the spread', async () => {
      const { stdout } = await kubectl([
        'get',
        'machinesets.machine-api.dev',
        '-n',
        ns(),
        '-o',
        'wide',
      ])
      return stdout.split('\n')[0]?.includes('ZONES') && stdout.includes(spread)
    })
    // Back to 7: the three new Machines take names no Machine of the set ever had.
    await scale(7)
    const again = await settledAt(7)
    const before = new Set(seven.machines.map((m) => m.metadata.name))
    const kept = new Set(four.machines.map((m) => m.metadata.name))
    const added = again.machines.map((m) => m.metadata.name).filter((n) => !kept.has(n))
    expect(added).toHaveLength(3)
    expect(added.filter((n) => before.has(n))).toEqual([])
  })
})
