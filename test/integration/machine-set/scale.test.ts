/**
 * MachineSet scaling against the real apiserver: 0 -> 20 -> 50 -> 10 -> 0 through the scale
 * subresource, with the victims each deletePolicy promises and the delete-machine annotation
 * (how cluster-autoscaler picks a victim) taking precedence.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANNOTATIONS } from '../../../src/api/group'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes } from '../../../src/kube/resource'
import type { DeletePolicy } from '../../../src/reconcile/machine-set/delete-order'
import { listMachines } from '../../../src/reconcile/machine-set/reconcile'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'
import type { ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { countingKube, machineSetManifest, ownedBy, testDeps } from './fixture'
import { scaleTo, settleMachineSet } from './settle'

const api = useMachineApi()
const ns = useFileNamespace(() => api().kc, 'ms-scale')
let kube: KubeClient
let deps: ReconcileDeps

beforeAll(() => {
  kube = countingKube(api().kc).kube
  deps = testDeps(kube)
})
afterAll(() => kube.close())

const names = (machines: MachineObject[]) => machines.map((m) => m.metadata.name).sort()
const second = (iso: string | undefined) => (iso ?? '').slice(0, 19)

async function machinesOf(uid: string | undefined) {
  return ownedBy(await listMachines(kube, ns()), uid)
}

const created = (m: MachineObject) => new Date(m.metadata.creationTimestamp ?? 0).getTime()
const uidHash = (m: MachineObject) =>
  createHash('sha256')
    .update(m.metadata.uid ?? '')
    .digest('hex')
const byName = (a: MachineObject, b: MachineObject) =>
  a.metadata.name.localeCompare(b.metadata.name)

/**
 * The order each deletePolicy promises among healthy, unmarked Machines (docs/machine-sets.md),
 * written out here rather than taken from the controller's code: Oldest deletes the oldest first,
 * Newest the youngest, Random shuffles by the SHA-256 of the UID (delete-order.ts); ties go by name.
 */
const deletedFirst: Record<DeletePolicy, (a: MachineObject, b: MachineObject) => number> = {
  Oldest: (a, b) => created(a) - created(b) || byName(a, b),
  Newest: (a, b) => created(b) - created(a) || byName(a, b),
  Random: (a, b) => uidHash(a).localeCompare(uidHash(b)) || byName(a, b),
}

/** The `count` Machines a scale-down removes: the marked ones, then by the policy's order. */
function expectedVictims(policy: DeletePolicy, all: MachineObject[], count: number) {
  const isMarked = (m: MachineObject) => ANNOTATIONS.deleteMachine in (m.metadata.annotations ?? {})
  const byPolicy = all.filter((m) => !isMarked(m)).sort(deletedFirst[policy])
  return [...all.filter(isMarked), ...byPolicy].slice(0, count)
}

/** Which 2 Machines to mark: ones the policy alone would have kept. */
function markTargets(policy: DeletePolicy, all: MachineObject[], early: Set<string>) {
  const victims = expectedVictims(policy, all, 40)
  const keptByPolicy = all.filter((m) => !victims.includes(m))
  const candidates =
    policy === 'Newest' ? keptByPolicy.filter((m) => early.has(m.metadata.name)) : keptByPolicy
  return candidates.slice(0, 2)
}

describe('MachineSet scaling', () => {
  it.each<DeletePolicy>(['Oldest', 'Newest', 'Random'])(
    'deletePolicy %s: 0 -> 20 -> 50 -> 10 -> 0 with the promised victims',
    async (policy) => {
      const name = `scale-${policy.toLowerCase()}`
      await kube.create(
        machineApiTypes.machineSet,
        machineSetManifest(ns(), name, { replicas: 0, deletePolicy: policy }),
      )
      const set = await settleMachineSet(deps, ns(), name)
      expect(await machinesOf(set.metadata.uid)).toEqual([])

      await scaleTo(deps, ns(), name, 20)
      await settleMachineSet(deps, ns(), name, { ready: true })
      const early = await machinesOf(set.metadata.uid)
      const earlyNames = new Set(names(early))
      const lastEarly = early
        .map((m) => second(m.metadata.creationTimestamp))
        .sort()
        .at(-1)
      // creationTimestamp has one-second resolution: start the second batch in a later second.
      await waitFor('the next second', () => second(new Date().toISOString()) > (lastEarly ?? ''))

      await scaleTo(deps, ns(), name, 50)
      await settleMachineSet(deps, ns(), name, { ready: true })
      const fifty = await machinesOf(set.metadata.uid)
      expect(fifty).toHaveLength(50)
      expect(new Set(fifty.map((m) => m.status?.phase))).toEqual(new Set(['Running']))

      const marked = markTargets(policy, fifty, earlyNames)
      for (const m of marked) {
        await kube.mergePatch(
          machineApiTypes.machine,
          { namespace: ns(), name: m.metadata.name },
          { metadata: { annotations: { [ANNOTATIONS.deleteMachine]: 'true' } } },
        )
      }
      const before = await machinesOf(set.metadata.uid)
      const victims = names(expectedVictims(policy, before, 40))

      await scaleTo(deps, ns(), name, 10)
      await settleMachineSet(deps, ns(), name, { ready: true })
      const survivors = names(await machinesOf(set.metadata.uid))
      expect(survivors).toHaveLength(10)
      for (const m of marked) expect(survivors).not.toContain(m.metadata.name)
      expect(survivors).toEqual(names(before).filter((n) => !victims.includes(n)))
      if (policy === 'Oldest') expect(survivors.filter((n) => earlyNames.has(n))).toEqual([])
      if (policy === 'Newest') expect(survivors.every((n) => earlyNames.has(n))).toBe(true)

      const events = await kube.list(coreTypes.event, {
        namespace: ns(),
        fieldSelector: `involvedObject.name=${name},reason=SuccessfulDelete`,
      })
      // The Event names the victims in the order they were chosen: the marked Machines first.
      const scaleDown = events.items
        .map((e) => String(e.message))
        .find((m) => m.startsWith('Deleted 40 Machines for replicas 10: '))
      const listed = (scaleDown ?? '').split(': ')[1]?.split(', ').slice(0, marked.length) ?? []
      expect(new Set(listed)).toEqual(
        new Set(marked.map((m) => `${m.metadata.name} (delete-machine annotation)`)),
      )

      await scaleTo(deps, ns(), name, 0)
      const empty = await settleMachineSet(deps, ns(), name)
      expect(await machinesOf(set.metadata.uid)).toEqual([])
      expect(empty.status).toMatchObject({ replicas: 0, readyReplicas: 0, availableReplicas: 0 })
    },
  )
})
