/**
 * MachineSet ownership and safety against the real apiserver: 8 concurrent reconciles never create
 * an extra Machine (watched at every instant), orphans matching the selector are adopted, Machines
 * whose labels stop matching are released, template labels propagate in place, and `kubectl
 * scale` drives the set through the scale subresource.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { hasKubeReason } from '../../../src/kube/errors'
import type { KubeClient } from '../../../src/kube/kube-client'
import {
  listMachines,
  machineSetController,
  reconcileMachineSet,
} from '../../../src/reconcile/machine-set/reconcile'
import type { MachineSetObject } from '../../../src/reconcile/machine-set/types'
import type { ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { holdAfterFirstCall } from '../../harness/held-kube'
import { kubectl } from '../../harness/kube'
import { kubectlApply, useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { countingKube, machineSetManifest, machineSpec, ownedBy, testDeps } from './fixture'
import { watchMachines } from './machine-watch'
import { scaleTo, settleMachineSet } from './settle'

const api = useMachineApi()
const ns = useFileNamespace(() => api().kc, 'ms-owner')
let counting: ReturnType<typeof countingKube>
let kube: KubeClient
let deps: ReconcileDeps

beforeAll(() => {
  counting = countingKube(api().kc)
  kube = counting.kube
  deps = testDeps(kube)
})
afterAll(() => kube.close())

const getSet = (name: string) =>
  kube.get<MachineSetObject & { [k: string]: unknown }>(machineApiTypes.machineSet, {
    namespace: ns(),
    name,
  })

describe('MachineSet ownership', () => {
  it('8 concurrent reconciles never create more Machines than replicas', async () => {
    const name = 'concurrent'
    const watch = await watchMachines(kube, ns(), (machines) => {
      const mine = machines.filter((m) => m.metadata.labels?.set === name)
      return mine.length > 30 ? `${mine.length} Machines exist for 30 replicas` : undefined
    })
    try {
      await kube.create(
        machineApiTypes.machineSet,
        machineSetManifest(ns(), name, { replicas: 30 }),
      )
      // Through the runtime's runner, as 8 workers that each got the key would run it: a lost
      // race is a `retry` outcome, and each worker runs again until it is done.
      const runner = createRunner({ controllers: [machineSetController()], deps })
      const key = { kind: 'MachineSet', namespace: ns(), name }
      const lost: string[] = []
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let pass = 0; pass < 10; pass++) {
            const outcome = await runner.run(key)
            if (outcome.type === 'done') return outcome.type
            lost.push(outcome.type)
          }
          return 'not done'
        }),
      )
      expect(outcomes).toEqual(Array(8).fill('done'))
      const set = await settleMachineSet(deps, ns(), name)
      await watch.seen(
        (machines) => machines.filter((m) => m.metadata.labels?.set === name).length === 30,
      )
      expect(ownedBy(await listMachines(kube, ns()), set.metadata.uid)).toHaveLength(30)
      expect(watch.violations).toEqual([])
      expect(watch.counts.DELETED ?? 0).toBe(0)
      expect(watch.maxMachines()).toBe(30)
      // The race was real: passes that planned the same names lost the claim on the set's
      // status (409) and ran again, counting the winner's names as Machines being created.
      expect(lost.length).toBeGreaterThan(0)
    } finally {
      await watch.stop()
    }
  })

  it('adopts a matching orphan, releases a Machine relabelled away, propagates labels', async () => {
    const name = 'adopter'
    await kube.create(machineApiTypes.machine, {
      metadata: { namespace: ns(), name: 'stray', labels: { set: name } },
      spec: machineSpec,
    })
    await kube.create(machineApiTypes.machineSet, machineSetManifest(ns(), name, { replicas: 2 }))
    const set = await settleMachineSet(deps, ns(), name)
    const owned = ownedBy(await listMachines(kube, ns()), set.metadata.uid)
    expect(owned.map((m) => m.metadata.name)).toContain('stray')
    expect(owned).toHaveLength(2)

    await kube.mergePatch(
      machineApiTypes.machine,
      { namespace: ns(), name: 'stray' },
      { metadata: { labels: { set: 'elsewhere' } } },
    )
    await kube.mergePatch(
      machineApiTypes.machineSet,
      { namespace: ns(), name },
      { spec: { template: { metadata: { labels: { set: name, team: 'blue' } } } } },
    )
    await settleMachineSet(deps, ns(), name)
    const machines = await listMachines(kube, ns())
    const stray = machines.find((m) => m.metadata.name === 'stray')
    expect(stray?.metadata.ownerReferences ?? []).toEqual([])
    const now = ownedBy(machines, set.metadata.uid)
    expect(now.map((m) => m.metadata.name)).not.toContain('stray')
    expect(now.map((m) => m.metadata.labels?.team)).toEqual(['blue', 'blue'])
    expect((await getSet(name))?.status?.fullyLabeledReplicas).toBe(2)
  })

  it('a pass held between its reads creates nothing for a scale-down that finished meanwhile', async () => {
    const name = 'held-pass'
    await kube.create(machineApiTypes.machineSet, machineSetManifest(ns(), name, { replicas: 2 }))
    const set = await settleMachineSet(deps, ns(), name)
    // A slow replica: its first apiserver read answers, then it stalls until released.
    const slow = await heldPass(name)
    // Meanwhile another replica scales the set to 0 and its Machines go.
    await scaleTo(deps, ns(), name, 0)
    await settleMachineSet(deps, ns(), name)
    await slow.finish()
    expect(ownedBy(await listMachines(kube, ns()), set.metadata.uid)).toEqual([])
  })

  it('a pass held between its list and its read of the set creates nothing for Machines another pass made meanwhile', async () => {
    const name = 'held-list'
    await kube.create(machineApiTypes.machineSet, machineSetManifest(ns(), name, { replicas: 0 }))
    const set = await settleMachineSet(deps, ns(), name)
    await scaleTo(deps, ns(), name, 3)
    // The slow pass lists the namespace (no Machine yet) and stalls before it reads the set.
    const slow = await heldPass(name)
    // Another pass creates the 3 Machines and marks its names done: the slow pass's list has none
    // of them, and the set it reads then counts none as being created.
    await settleMachineSet(deps, ns(), name)
    expect(ownedBy(await listMachines(kube, ns()), set.metadata.uid)).toHaveLength(3)
    await slow.finish()
    expect(ownedBy(await listMachines(kube, ns()), set.metadata.uid)).toHaveLength(3)
  })

  it('kubectl scale works and the scale subresource reports the selector', async () => {
    const name = 'kubectl-scaled'
    await kubectlApply([machineSetManifest(ns(), name, { replicas: 1 })])
    await settleMachineSet(deps, ns(), name)
    await kubectl(['scale', 'machinesets.machine-api.dev', name, '-n', ns(), '--replicas=4'])
    const set = await settleMachineSet(deps, ns(), name)
    expect(set.status?.replicas).toBe(4)
    const { stdout } = await kubectl([
      'get',
      '--raw',
      `/apis/machine-api.dev/v1beta1/namespaces/${ns()}/machinesets/${name}/scale`,
    ])
    const scale = JSON.parse(stdout) as { spec: { replicas: number }; status: { selector: string } }
    expect(scale).toMatchObject({ spec: { replicas: 4 }, status: { selector: `set=${name}` } })
    const { stdout: columns } = await kubectl(['get', 'ms', name, '-n', ns(), '--no-headers'])
    expect(columns.split(/\s+/).slice(0, 3)).toEqual([name, '4', '4'])
  })
})

/**
 * A slow replica's pass over set `name`: its first apiserver read (the Machine list) answers, then
 * it stalls until `finish`, which lets it run on and accepts the Conflict a stale pass may end in.
 */
async function heldPass(name: string) {
  const held = holdAfterFirstCall(kube)
  const pass = reconcileMachineSet(testDeps(held.kube), {
    kind: 'MachineSet',
    namespace: ns(),
    name,
  })
  await held.firstAnswered
  return {
    finish: async () => {
      held.release()
      await pass.catch((error) => {
        if (!hasKubeReason(error, 'Conflict')) throw error
      })
    },
  }
}
