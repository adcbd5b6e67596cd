/**
 * cluster-autoscaler compatibility against the real apiserver: replicas defaulted from the
 * node-group min/max annotations when unset (and kept when a GitOps apply drops them), and the
 * autoscaler's scale-down: mark a victim with the delete-machine annotation, then lower replicas
 * through the scale subresource, on a MachineSet and on a MachineDeployment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANNOTATIONS } from '../../../src/api/group'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { clusterApiDeleteMachineAnnotation } from '../../../src/reconcile/machine-set/delete-order'
import { listMachines } from '../../../src/reconcile/machine-set/reconcile'
import type { MachineSetObject } from '../../../src/reconcile/machine-set/types'
import type { ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { kubectlApply, useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { deploymentManifest, driveUntil, rolledOut } from '../machine-deployment/drive'
import { countingKube, machineSetManifest, ownedBy, testDeps } from './fixture'
import { scaleTo, settleMachineSet } from './settle'

const api = useMachineApi()
const ns = useFileNamespace(() => api().kc, 'ms-autoscaler')
let kube: KubeClient
let deps: ReconcileDeps

beforeAll(() => {
  kube = countingKube(api().kc).kube
  deps = testDeps(kube)
})
afterAll(() => kube.close())

const bounds = { [ANNOTATIONS.autoscalerMinSize]: '2', [ANNOTATIONS.autoscalerMaxSize]: '6' }

async function markVictim(name: string) {
  await kube.mergePatch(
    machineApiTypes.machine,
    { namespace: ns(), name },
    { metadata: { annotations: { [clusterApiDeleteMachineAnnotation]: 'true' } } },
  )
}

describe('cluster-autoscaler compatibility', () => {
  it('defaults replicas from min/max and keeps the autoscaler value on a GitOps re-apply', async () => {
    const name = 'node-group'
    const manifest = machineSetManifest(ns(), name, {})
    manifest.metadata = { ...manifest.metadata, annotations: bounds }
    await kubectlApply([manifest])
    const set = await settleMachineSet(deps, ns(), name)
    expect(set.spec.replicas).toBe(2)

    await scaleTo(deps, ns(), name, 5)
    await kubectlApply([manifest])
    const kept = await settleMachineSet(deps, ns(), name)
    expect(kept.spec.replicas).toBe(5)
    expect(ownedBy(await listMachines(kube, ns()), set.metadata.uid)).toHaveLength(5)
  })

  it('a MachineSet scale-down removes the Machine the autoscaler marked', async () => {
    const name = 'ms-victim'
    await kube.create(machineApiTypes.machineSet, machineSetManifest(ns(), name, { replicas: 4 }))
    const set = await settleMachineSet(deps, ns(), name, { ready: true })
    const machines = ownedBy(await listMachines(kube, ns()), set.metadata.uid)
    const victim = machines[2]?.metadata.name ?? ''
    await markVictim(victim)
    await scaleTo(deps, ns(), name, 3)
    await settleMachineSet(deps, ns(), name, { ready: true })
    const left = ownedBy(await listMachines(kube, ns()), set.metadata.uid).map(
      (m) => m.metadata.name,
    )
    expect(left).toHaveLength(3)
    expect(left).not.toContain(victim)
  })

  it('a MachineDeployment scale-down removes the Machine the autoscaler marked', async () => {
    const name = 'md-victim'
    await kube.create(
      machineApiTypes.machineDeployment,
      deploymentManifest(ns(), name, { replicas: 4 }),
    )
    const { sets } = await driveUntil(deps, ns(), name, (md) => rolledOut(md))
    const set = sets[0] as MachineSetObject
    const victim = ownedBy(await listMachines(kube, ns()), set.metadata.uid)[1]?.metadata.name ?? ''
    await markVictim(victim)
    await scaleTo(deps, ns(), name, 3, machineApiTypes.machineDeployment)
    await driveUntil(deps, ns(), name, (md) => rolledOut(md))
    const left = ownedBy(await listMachines(kube, ns()), set.metadata.uid).map(
      (m) => m.metadata.name,
    )
    expect(left).toHaveLength(3)
    expect(left).not.toContain(victim)
  })
})
