/**
 * A RollingUpdate on a 10-replica MachineDeployment (maxSurge 2, maxUnavailable 1) against the
 * real apiserver. A watch on every Machine of the namespace checks the bounds at each observed
 * instant: never more than 12 Machines, never fewer than 9 available. Two template changes in a
 * row also show history trimmed to revisionHistoryLimit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANNOTATIONS } from '../../../src/api/group'
import { machineApiTypes } from '../../../src/api/resource-types'
import { hasKubeReason } from '../../../src/kube/errors'
import type { KubeClient } from '../../../src/kube/kube-client'
import {
  type MachineDeploymentObject,
  revisionOf,
} from '../../../src/reconcile/machine-deployment/machine-sets'
import { reconcileMachineDeployment } from '../../../src/reconcile/machine-deployment/reconcile'
import type { MachineSetObject } from '../../../src/reconcile/machine-set/types'
import type { ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { holdAfterFirstCall } from '../../harness/held-kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { countingKube, isReady, testDeps } from '../machine-set/fixture'
import { watchMachines } from '../machine-set/machine-watch'
import { deploymentManifest, driveUntil, readDeployment, rolledOut } from './drive'

const api = useMachineApi()
const ns = useFileNamespace(() => api().kc, 'md-rollout')
let kube: KubeClient
let deps: ReconcileDeps

beforeAll(() => {
  kube = countingKube(api().kc).kube
  deps = testDeps(kube)
})
afterAll(() => kube.close())

const name = 'workers'
const classOf = (set: { spec: { template: { spec: { classRef?: { name: string } } } } }) =>
  set.spec.template.spec.classRef?.name

async function changeClass(to: string) {
  await kube.mergePatch(
    machineApiTypes.machineDeployment,
    { namespace: ns(), name },
    { spec: { template: { spec: { classRef: { name: to } } } } },
  )
}

describe('MachineDeployment RollingUpdate', () => {
  it('rolls 10 replicas with maxSurge 2 / maxUnavailable 1 inside the bounds at every instant', async () => {
    await kube.create(
      machineApiTypes.machineDeployment,
      deploymentManifest(ns(), name, {
        replicas: 10,
        revisionHistoryLimit: 1,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2, maxUnavailable: 1 } },
      }),
    )
    await driveUntil(deps, ns(), name, (md) => rolledOut(md))

    const watch = await watchMachines(kube, ns(), (machines) => {
      const total = machines.length
      const available = machines.filter((m) => isReady(m) && !m.metadata.deletionTimestamp).length
      if (total > 12) return `${total} Machines exist (max 12)`
      if (available < 9) return `${available} Machines available (min 9)`
      return undefined
    })
    try {
      for (const [to, revision] of [
        ['y', 2],
        ['z', 3],
      ] as const) {
        await changeClass(to)
        const { sets } = await driveUntil(
          deps,
          ns(),
          name,
          (md, sets) =>
            rolledOut(md) &&
            sets.every((s) => (s.status?.replicas ?? 0) === (s.spec.replicas ?? 0)),
        )
        const current = sets.find((s) => classOf(s) === to)
        expect(current?.metadata.annotations?.[ANNOTATIONS.revision]).toBe(String(revision))
        expect(current?.status).toMatchObject({ replicas: 10, availableReplicas: 10 })
        for (const old of sets.filter((s) => s !== current)) {
          expect(old.spec.replicas).toBe(0)
          expect(old.status?.replicas ?? 0).toBe(0)
        }
        // revisionHistoryLimit 1: the current set plus one old one.
        expect(sets.map(revisionOf).sort()).toEqual(revision === 2 ? [1, 2] : [2, 3])
      }
      await watch.seen((machines) => machines.every((m) => m.spec?.classRef?.name === 'z'))
      expect(watch.violations).toEqual([])
      // The rollout did use its surge budget (so the bound was exercised, not trivially met).
      expect(watch.maxMachines()).toBeGreaterThan(10)
      expect(watch.maxMachines()).toBeLessThanOrEqual(12)
    } finally {
      await watch.stop()
    }
  })
  it('a pass held between its reads does not roll back a rollout that finished meanwhile', async () => {
    const held = 'held'
    const key = { kind: 'MachineDeployment', namespace: ns(), name: held }
    await kube.create(
      machineApiTypes.machineDeployment,
      deploymentManifest(ns(), held, { replicas: 2 }),
    )
    await driveUntil(deps, ns(), held, (md) => rolledOut(md))
    // A slow replica: its first apiserver read answers, then it stalls until released.
    const slow = holdAfterFirstCall(kube)
    const stalePass = reconcileMachineDeployment(testDeps(slow.kube), key)
    await slow.firstAnswered
    // Meanwhile the template changes and the rollout completes on the other replicas.
    await kube.mergePatch(
      machineApiTypes.machineDeployment,
      { namespace: ns(), name: held },
      { spec: { template: { spec: { classRef: { name: 'after' } } } } },
    )
    const finished = (md: MachineDeploymentObject, sets: MachineSetObject[]) =>
      rolledOut(md) && sets.every((s) => (s.status?.replicas ?? 0) === (s.spec.replicas ?? 0))
    await driveUntil(deps, ns(), held, finished)
    slow.release()
    await stalePass.catch((error) => {
      if (!hasKubeReason(error, 'Conflict', 'AlreadyExists')) throw error
    })
    const { sets } = await readDeployment(deps, ns(), held)
    const replicasByClass = Object.fromEntries(sets.map((s) => [classOf(s), s.spec.replicas]))
    expect(replicasByClass).toEqual({ x: 0, after: 2 })
  })
})
