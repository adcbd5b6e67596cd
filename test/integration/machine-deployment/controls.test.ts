/**
 * MachineDeployment controls against the real apiserver: rollback to the previous template,
 * `paused` holding a rollout while scaling still works (kubectl scale), in-place propagation of
 * labels and deletePolicy without a new MachineSet, OnDelete, and the progress deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { revisionOf } from '../../../src/reconcile/machine-deployment/machine-sets'
import { listMachines } from '../../../src/reconcile/machine-set/reconcile'
import type { ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { kubectl } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { countingKube, ownedBy, testDeps } from '../machine-set/fixture'
import { deploymentManifest, driveUntil, pass, readDeployment, rolledOut } from './drive'

const api = useMachineApi()
const ns = useFileNamespace(() => api().kc, 'md-controls')
let kube: KubeClient
let deps: ReconcileDeps

beforeAll(() => {
  kube = countingKube(api().kc).kube
  deps = testDeps(kube)
})
afterAll(() => kube.close())

const patchDeployment = (name: string, patch: object) =>
  kube.mergePatch(machineApiTypes.machineDeployment, { namespace: ns(), name }, patch)
const classTo = (to: string) => ({ spec: { template: { spec: { classRef: { name: to } } } } })
const classOf = (s: { spec: { template: { spec: { classRef?: { name: string } } } } }) =>
  s.spec.template.spec.classRef?.name

async function createRolledOut(name: string, spec: Record<string, unknown> = {}) {
  await kube.create(
    machineApiTypes.machineDeployment,
    deploymentManifest(ns(), name, { replicas: 3, ...spec }),
  )
  return await driveUntil(deps, ns(), name, (md) => rolledOut(md))
}

describe('MachineDeployment controls', () => {
  it('rollbackTo restores the previous template on a new revision', async () => {
    const name = 'rollback'
    await createRolledOut(name)
    await patchDeployment(name, classTo('b'))
    await driveUntil(
      deps,
      ns(),
      name,
      (md) => rolledOut(md) && md.spec.template.spec.classRef?.name === 'b',
    )

    await patchDeployment(name, { spec: { rollbackTo: { revision: 0 } } })
    const { md, sets } = await driveUntil(
      deps,
      ns(),
      name,
      (d, s) =>
        rolledOut(d) && s.every((x) => classOf(x) === 'x' || (x.status?.replicas ?? 0) === 0),
    )
    expect(md.spec.template.spec.classRef?.name).toBe('x')
    expect(md.spec.rollbackTo).toBeUndefined()
    const current = sets.find((s) => (s.spec.replicas ?? 0) > 0)
    if (!current) throw new Error('no MachineSet has replicas')
    expect(classOf(current)).toBe('x')
    expect(revisionOf(current)).toBe(3)
    const machines = ownedBy(await listMachines(kube, ns()), current.metadata.uid)
    expect(machines.map((m) => m.spec?.classRef?.name)).toEqual(['x', 'x', 'x'])
  })

  it('paused holds a template change while kubectl scale still scales; unpausing rolls out', async () => {
    const name = 'paused'
    const { sets: before } = await createRolledOut(name)
    await patchDeployment(name, { spec: { paused: true, ...classTo('b').spec } })
    await kubectl(['scale', 'machinedeployments.machine-api.dev', name, '-n', ns(), '--replicas=5'])
    const { sets } = await driveUntil(
      deps,
      ns(),
      name,
      (md, s) =>
        md.status?.observedGeneration === md.metadata.generation &&
        md.status?.replicas === 5 &&
        s.length === 1,
    )
    for (let i = 0; i < 3; i++) await pass(deps, ns(), name)
    const held = await readDeployment(deps, ns(), name)
    expect(held.sets.map((s) => s.metadata.name)).toEqual(before.map((s) => s.metadata.name))
    expect(sets.map((s) => [classOf(s), s.spec.replicas])).toEqual([['x', 5]])
    expect(held.md.status?.conditions?.find((c) => c.type === 'Progressing')?.reason).toBe('Paused')

    await patchDeployment(name, { spec: { paused: false } })
    const done = await driveUntil(deps, ns(), name, (md) => rolledOut(md))
    expect(done.sets.find((s) => s.spec.replicas === 5)?.spec.template.spec.classRef?.name).toBe(
      'b',
    )
  })

  it('propagates labels and deletePolicy in place, without a new MachineSet', async () => {
    const name = 'in-place'
    const { sets: before } = await createRolledOut(name)
    await patchDeployment(name, {
      spec: {
        template: {
          metadata: { labels: { md: name, team: 'blue' } },
          spec: { nodeDrainTimeout: '5m' },
        },
        strategy: { rollingUpdate: { deletePolicy: 'Oldest' } },
      },
    })
    const { sets } = await driveUntil(deps, ns(), name, (md, s) => {
      const set = s[0]
      return (
        rolledOut(md) &&
        set?.spec.deletePolicy === 'Oldest' &&
        set.status?.fullyLabeledReplicas === 3
      )
    })
    expect(sets.map((s) => s.metadata.uid)).toEqual(before.map((s) => s.metadata.uid))
    const machines = ownedBy(await listMachines(kube, ns()), sets[0]?.metadata.uid)
    expect(machines.map((m) => [m.metadata.labels?.team, m.spec?.nodeDrainTimeout])).toEqual([
      ['blue', '5m'],
      ['blue', '5m'],
      ['blue', '5m'],
    ])
  })

  it('OnDelete replaces only the Machines a user deletes', async () => {
    const name = 'on-delete'
    await createRolledOut(name, { strategy: { type: 'OnDelete' } })
    await patchDeployment(name, classTo('b'))
    const { sets } = await driveUntil(
      deps,
      ns(),
      name,
      (md, s) => md.status?.observedGeneration === md.metadata.generation && s.length === 2,
    )
    const old = sets.find((s) => classOf(s) === 'x')
    const oldMachines = ownedBy(await listMachines(kube, ns()), old?.metadata.uid)
    expect(oldMachines).toHaveLength(3)
    const victim = oldMachines[0]?.metadata.name ?? ''
    await kube.delete(machineApiTypes.machine, { namespace: ns(), name: victim })
    const after = await driveUntil(
      deps,
      ns(),
      name,
      (md, s) => md.status?.updatedReplicas === 1 && md.status.replicas === 3 && s.length === 2,
    )
    const machines = await listMachines(kube, ns())
    const byClass = (c: string) =>
      machines.filter((m) => m.metadata.labels?.md === name && m.spec?.classRef?.name === c).length
    expect([byClass('x'), byClass('b')]).toEqual([2, 1])
    expect(after.sets.find((s) => classOf(s) === 'x')?.spec.replicas).toBe(2)
  })

  it('reports ProgressDeadlineExceeded when new Machines never become ready', async () => {
    const name = 'stuck'
    await kube.create(
      machineApiTypes.machineDeployment,
      deploymentManifest(ns(), name, { replicas: 1, progressDeadlineSeconds: 1 }),
    )
    const { md } = await driveUntil(
      deps,
      ns(),
      name,
      (d) => d.status?.conditions?.find((c) => c.type === 'Progressing')?.status === 'False',
      { ready: false },
    )
    const progressing = md.status?.conditions?.find((c) => c.type === 'Progressing')
    expect(progressing?.reason).toBe('ProgressDeadlineExceeded')
    expect(progressing?.message).toContain(
      'has not progressed for 1s: 1 of 1 Machines updated, 0 available',
    )
  })
})
