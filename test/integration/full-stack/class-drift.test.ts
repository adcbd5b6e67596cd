/**
 * A MachineClass change rolls every MachineDeployment that uses it, and spec.rolloutAfter rolls a
 * deployment once, with every controller running and the kwok provider. One kwok class serves a
 * 5-replica RollingUpdate deployment (maxSurge 1, maxUnavailable 1), a 1-replica one, and a
 * 1-replica OnDelete one. A watch on the 5-replica deployment's Machines measures, at every
 * observed instant of the rollout, how many of its 5 are not Ready (being deleted counts as not).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANNOTATIONS, LABELS } from '../../../src/api/group'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'
import { waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { watchMachines } from '../machine-set/machine-watch'
import { fullStackKube, startFullStack } from './fixture'
import { deploymentLabel, deploymentState, isReadyMachine, machinesOf, nodeLabels } from './objects'

const api = useMachineApi({
  providerSchemas: (name) => (name === 'kwok' ? kwokProviderSpecSchema() : undefined),
})
const ns = useFileNamespace(() => api().kc, 'class-drift')
let kube: KubeClient
beforeAll(() => {
  kube = fullStackKube(api().kc)
})
afterAll(() => kube.close())

const revLabel = 'class-drift.machine-api.dev/rev'

function kwokClass(name: string, rev: string): KubeObject {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: ns(), name },
    spec: { provider: 'kwok', providerSpec: { nodeLabels: { [revLabel]: rev } } },
  }
}

function classDeployment(
  name: string,
  replicas: number,
  strategy: object,
  className = 'shared',
): KubeObject {
  const labels = { [deploymentLabel]: name }
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineDeployment',
    metadata: { namespace: ns(), name },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { classRef: { name: className }, nodeDeletionTimeout: '10s' },
      },
      strategy,
    },
  }
}

const of = (machines: MachineObject[], name: string) =>
  machines.filter((m) => m.metadata.labels?.[deploymentLabel] === name)

/** Resolves once `name` runs `replicas` Ready Machines, all of one set, with `rev` Nodes. */
async function runsRev(name: string, replicas: number, rev: string) {
  return await waitFor(
    `${name} on rev ${rev}`,
    async () => {
      const machines = of(await machinesOf(kube, ns()), name)
      if (machines.length !== replicas || !machines.every(isReadyMachine)) return false
      for (const m of machines) {
        const labels = await nodeLabels(kube, m.status?.nodeRef?.name ?? '')
        if (labels?.[revLabel] !== rev) return false
      }
      return machines
    },
    { intervalMs: 500, timeoutMs: 180_000 },
  )
}

async function eventsOf(name: string): Promise<Array<{ reason?: string; message?: string }>> {
  const page = await kube.list(coreTypes.event, {
    namespace: ns(),
    fieldSelector: `involvedObject.name=${name}`,
  })
  return page.items as Array<{ reason?: string; message?: string }>
}

describe('a MachineClass change and spec.rolloutAfter', () => {
  it('a class change rolls every deployment of the class within maxUnavailable; OnDelete only marks', async () => {
    await startFullStack(kube, ns())
    await kube.create(machineApiTypes.machineClass, kwokClass('shared', '1'))
    const rolling = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } }
    await kube.create(machineApiTypes.machineDeployment, classDeployment('five', 5, rolling))
    await kube.create(machineApiTypes.machineDeployment, classDeployment('one', 1, rolling))
    await kube.create(
      machineApiTypes.machineDeployment,
      classDeployment('manual', 1, { type: 'OnDelete' }),
    )
    await runsRev('five', 5, '1')
    await runsRev('one', 1, '1')
    const [manual] = await runsRev('manual', 1, '1')

    let maxUnavailable = 0
    let rolled: MachineObject[] = []
    const watch = await watchMachines(kube, ns(), (machines) => {
      const unavailable = 5 - of(machines, 'five').filter(isReadyMachine).length
      maxUnavailable = Math.max(maxUnavailable, unavailable)
      return unavailable > 1 ? `${unavailable} of five's 5 Machines unavailable (max 1)` : undefined
    })
    try {
      await kube.mergePatch(
        machineApiTypes.machineClass,
        { namespace: ns(), name: 'shared' },
        { spec: { providerSpec: { nodeLabels: { [revLabel]: '2' } } } },
      )
      rolled = await runsRev('five', 5, '2')
      await runsRev('one', 1, '2')
      await watch.seen((machines) =>
        of(machines, 'five').every((m) => rolled.some((n) => n.metadata.uid === m.metadata.uid)),
      )
      console.log(`class drift: five rolled with at most ${maxUnavailable} of 5 unavailable`)
      expect(watch.violations).toEqual([])
    } finally {
      await watch.stop()
    }
    const events = await eventsOf('five')
    expect(events.map((e) => e.message)).toContain(
      `Rolling 5 Machines to MachineSet ${
        (await deploymentState(kube, ns(), 'five')).sets.find((s) => (s.spec.replicas ?? 0) === 5)
          ?.metadata.name
      }: MachineClass shared changed (nodeLabels.${revLabel} 1 -> 2)`,
    )

    // OnDelete: the Machine stays, marked by an Event; once deleted, its replacement is new.
    const manualEvents = await waitFor('the OnDelete mark', async () =>
      (await eventsOf('manual')).find((e) => e.reason === 'ClassChanged'),
    )
    expect(manualEvents.message).toMatch(/^1 Machine out of date \(OnDelete/)
    const marked = await waitFor('the OnDelete Machine marked out of date', async () => {
      const [m] = of(await machinesOf(kube, ns()), 'manual')
      const upToDate = m?.status?.conditions?.find((c) => c.type === 'UpToDate')
      return upToDate?.status === 'False' && upToDate
    })
    expect(marked.reason).toBe('ClassChanged')
    // The new Machines record the content they were built from: the class's published hash.
    const shared = await kube.get(machineApiTypes.machineClass, { namespace: ns(), name: 'shared' })
    const contentHash = (shared?.status as { contentHash?: string } | undefined)?.contentHash
    expect(contentHash).toBeDefined()
    expect(rolled.map((m) => m.status?.builtFrom?.classHash)).toEqual(rolled.map(() => contentHash))
    const still = of(await machinesOf(kube, ns()), 'manual')
    expect(still.map((m) => m.metadata.uid)).toEqual([manual?.metadata.uid])
    await kube.delete(machineApiTypes.machine, {
      namespace: ns(),
      name: manual?.metadata.name ?? '',
    })
    await runsRev('manual', 1, '2')
  })

  it('spec.rolloutAfter replaces the Machines created before it, once', async () => {
    await startFullStack(kube, ns())
    const rolling = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }
    await kube.create(machineApiTypes.machineClass, kwokClass('timed', '2'))
    await kube.create(
      machineApiTypes.machineDeployment,
      classDeployment('timed', 2, rolling, 'timed'),
    )
    const before = await runsRev('timed', 2, '2')
    const at = new Date(Date.now() + 2000).toISOString()
    await kube.mergePatch(
      machineApiTypes.machineDeployment,
      { namespace: ns(), name: 'timed' },
      { spec: { rolloutAfter: at } },
    )
    const after = await waitFor(
      'the timed rollout',
      async () => {
        const machines = of(await machinesOf(kube, ns()), 'timed')
        const fresh = machines.filter(
          (m) => isReadyMachine(m) && !before.some((b) => b.metadata.uid === m.metadata.uid),
        )
        return machines.length === 2 && fresh.length === 2 && machines
      },
      { intervalMs: 500, timeoutMs: 120_000 },
    )
    // Scaling up reconciles the deployment again: the time has passed, nothing rolls again.
    await kube.mergePatch(
      machineApiTypes.machineDeployment,
      { namespace: ns(), name: 'timed' },
      { spec: { replicas: 3 } },
    )
    const three = await runsRev('timed', 3, '2')
    expect(three.filter((m) => after.some((a) => a.metadata.uid === m.metadata.uid))).toHaveLength(
      2,
    )
    const { sets } = await deploymentState(kube, ns(), 'timed')
    expect(sets.map((s) => s.metadata.annotations?.[ANNOTATIONS.revision]).sort()).toEqual([
      '1',
      '2',
    ])
    const reasons = sets.map((s) => s.metadata.annotations?.[ANNOTATIONS.rolloutReason] ?? '')
    expect(reasons.filter((r) => r.includes('RolloutAfter'))).toHaveLength(1)
    expect(sets.every((s) => s.metadata.labels?.[LABELS.templateHash])).toBe(true)
  })
})
